import type { TokenOwner } from "../db/agents.ts";

/**
 * Token owners read in the last `ttlMs`, so a busy agent does not cost a database read per request.
 * The lifetime bounds staleness: a token revoked or an agent suspended elsewhere (the staff CLI,
 * another instance) is refused within `ttlMs`, the same bound as staff switches. Writes this
 * instance makes to an agent's standing drop its entries at once. Unknown tokens are never cached.
 */
export class TokenOwnerCache {
  readonly #entries = new Map<string, { owner: TokenOwner; readAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly limit = 10_000,
  ) {}

  get(key: string): TokenOwner | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.readAt >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.owner;
  }

  set(key: string, owner: TokenOwner): void {
    if (this.ttlMs <= 0) return;
    if (this.#entries.size >= this.limit) this.#entries.delete(this.#entries.keys().next().value ?? "");
    this.#entries.set(key, { owner, readAt: this.now() });
  }

  /** Forget every token of this agent (its standing just changed here). */
  forgetAgent(agentId: string): void {
    for (const [key, entry] of this.#entries) if (entry.owner.agent.id === agentId) this.#entries.delete(key);
  }
}
