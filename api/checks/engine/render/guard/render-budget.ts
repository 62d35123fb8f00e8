/** The bounds of one scan's rendering (DESIGN §8, "bounded and polite"); the defaults are in render-limits.ts. */
export interface RenderBudgetLimits {
  /** Requests the pages may send, and tunnels or plain requests the guard proxy may open for them. */
  maxRequests: number;
  /** Bytes relayed by the guard proxy, both ways. */
  maxBytes: number;
  /** Distinct host names the pages may reach. */
  maxHosts: number;
}

/**
 * What one scan's browser has spent: the pages' requests (counted where Playwright sees them), the guard proxy's
 * connections (a TLS tunnel carries many requests the proxy cannot see; a redirect hop is a new one), the bytes the
 * proxy relayed and the hosts asked for. Each has its limit; past it, requests are refused, never queued.
 */
export class RenderBudget {
  private readonly limits: RenderBudgetLimits;
  private readonly hostNames = new Set<string>();
  requests = 0;
  connections = 0;
  bytes = 0;

  constructor(limits: RenderBudgetLimits) {
    this.limits = limits;
  }

  get hosts(): number {
    return this.hostNames.size;
  }

  /** A page's request: counted, or the reason it may not be sent. */
  takeRequest(host: string): string | null {
    const refusal = this.admitHost(host) ?? this.bytesSpent();
    if (refusal !== null) return refusal;
    if (this.requests >= this.limits.maxRequests)
      return `the rendering's budget of ${this.limits.maxRequests} requests is spent`;
    this.requests += 1;
    return null;
  }

  /** A tunnel or plain request at the guard proxy: counted, or the reason it is refused. */
  takeConnection(host: string): string | null {
    const refusal = this.admitHost(host) ?? this.bytesSpent();
    if (refusal !== null) return refusal;
    if (this.connections >= this.limits.maxRequests)
      return `the rendering's budget of ${this.limits.maxRequests} connections is spent`;
    this.connections += 1;
    return null;
  }

  /** Counts relayed bytes; false once the budget is spent (the proxy then cuts the connection). */
  addBytes(count: number): boolean {
    this.bytes += count;
    return this.bytes <= this.limits.maxBytes;
  }

  private bytesSpent(): string | null {
    return this.bytes > this.limits.maxBytes
      ? `the rendering's budget of ${Math.round(this.limits.maxBytes / 1_000_000)} MB is spent`
      : null;
  }

  private admitHost(host: string): string | null {
    const name = host.toLowerCase();
    if (this.hostNames.has(name)) return null;
    if (this.hostNames.size >= this.limits.maxHosts)
      return `the rendering's budget of ${this.limits.maxHosts} hosts is spent`;
    this.hostNames.add(name);
    return null;
  }
}
