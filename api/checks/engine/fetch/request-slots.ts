/** At most `size` requests of a scan in flight at once, so a scan never floods the site it checks. */
export class RequestSlots {
  private readonly size: number;
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(size: number) {
    this.size = size;
  }

  async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot straight to the next waiter, if any. */
  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.active -= 1;
    else next();
  }
}

/** How a request may draw on the scan's request budget. */
export interface BudgetClaim {
  /** One of many links a check samples: refused once only the reserved end of the budget is left. */
  sample: boolean;
  /** For a sample: true the first time it is called for the check's first sample, false after (see RequestBudget). */
  firstSample?: (() => boolean) | undefined;
}

/**
 * The scan's request budget, planned so that every applicable check reaches a verdict on a large site (DESIGN §8): the
 * last `sampleReserve` requests are kept for essential fetches, and before them one request for the first sample of
 * each sampling check that has not had one yet; other samples share what is left.
 */
export class RequestBudget {
  private readonly limits: { maxRequests: number; sampleReserve: number };
  private sentCount = 0;
  private minimumsLeft = 0;

  constructor(limits: { maxRequests: number; sampleReserve: number }) {
    this.limits = limits;
  }

  /** Requests sent so far. */
  get sent(): number {
    return this.sentCount;
  }

  /** How many applicable checks sample: each is kept one sample before anything is shared out. */
  planSamples(checks: number): void {
    this.minimumsLeft = checks;
  }

  /** A planned check finished without sampling: its kept request goes back to the shared part. */
  releaseSample(): void {
    this.minimumsLeft = Math.max(0, this.minimumsLeft - 1);
  }

  /** Counts one request, or says why it may not be sent. */
  take(claim: BudgetClaim): string | null {
    const { maxRequests, sampleReserve } = this.limits;
    if (this.sentCount >= maxRequests) return `the scan's budget of ${maxRequests} requests is spent`;
    if (claim.sample && this.sentCount >= maxRequests - sampleReserve)
      return `the last ${sampleReserve} requests of the budget are kept for essential checks`;
    if (claim.sample && claim.firstSample?.() === true) this.releaseSample();
    else if (claim.sample && this.sentCount >= maxRequests - sampleReserve - this.minimumsLeft)
      return `the sampling share of the budget is spent (${this.minimumsLeft} more are kept for other checks' first sample)`;
    this.sentCount += 1;
    return null;
  }
}
