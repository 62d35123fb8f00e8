import type { TokenOwner } from "./token-owner.ts";

interface Entry {
  owner: TokenOwner;
  readAt: number;
  /** A fresh reading was asked for (refresh-ahead) and has not come back. */
  refreshing?: true;
}

/**
 * Token owners read in the last `ttlMs`, so a busy agent does not cost a database read per request.
 * A revocation or suspension made anywhere (the staff CLI, another instance) is not left to the
 * lifetime: each owner carries the standing epoch it was read under, and one older than the
 * instance's latest reading of the epoch is read again (standing-epoch.ts): the refusal holds
 * within a quarter of a second everywhere, and from the next request once the staff command that
 * made it has returned. Writes this instance makes to an agent's standing drop its entries at once;
 * the lifetime (TOKEN_CACHE_MS) bounds what an agent's own writes through another instance leave
 * stale here (its waiting-list and survey dates). An agent still reads its own writes: the front
 * sends each token's requests to one instance (src/lib/nginx-conf.ts), and a deployment whose
 * balancer cannot sets the lifetime to 0. Unknown tokens are never cached.
 *
 * Keyed by the presented token itself, not its hash: hashing on every request cost about 16 µs on
 * the benchmark machine, more than the rest of the token check together. The database still keeps
 * only hashes; here a token lives in this process's memory, as it does while its request is read,
 * and expired entries are swept out whenever an entry is added, so none outlives its agent's
 * activity by much more than `ttlMs`.
 */
export class TokenOwnerCache {
  readonly #entries = new Map<string, Entry>();
  /** Each agent's cached tokens, so forgetting an agent does not scan every entry. */
  readonly #tokensByAgent = new Map<string, Set<string>>();
  #sweptAt = 0;

  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly limit;
  private readonly refresh?: (token: string) => Promise<TokenOwner | null>;

  constructor(
    ttlMs: number,
    now: () => number,
    limit = 10_000,
    /**
     * Reads a token's owner again. Given, an entry past half its life is re-read in the background
     * while it is still served, so a token in steady use never misses: against a libSQL server a
     * miss is a round trip that every request with the token waited for, once a second.
     */
    refresh?: (token: string) => Promise<TokenOwner | null>,
  ) {
    this.ttlMs = ttlMs;
    this.now = now;
    this.limit = limit;
    this.refresh = refresh;
  }

  get(token: string): TokenOwner | undefined {
    const entry = this.#entries.get(token);
    if (!entry) return undefined;
    const age = this.now() - entry.readAt;
    if (age >= this.ttlMs) {
      this.#delete(token, entry);
      return undefined;
    }
    if (this.refresh && age * 2 >= this.ttlMs && !entry.refreshing) this.#refresh(token, entry, this.refresh);
    return entry.owner;
  }

  #refresh(token: string, entry: Entry, read: (token: string) => Promise<TokenOwner | null>): void {
    entry.refreshing = true;
    read(token).then(
      (owner) => {
        // Dropped meanwhile (the agent's standing changed here): what was read may predate that.
        if (this.#entries.get(token) !== entry) return;
        if (owner) this.set(token, owner);
        else this.#delete(token, entry);
      },
      // Not read: the entry expires as it would have, and the next request reads the database.
      () => undefined,
    );
  }

  set(token: string, owner: TokenOwner): void {
    if (this.ttlMs <= 0) return;
    const now = this.now();
    if (now - this.#sweptAt >= this.ttlMs) this.#sweep(now);
    const previous = this.#entries.get(token);
    if (previous) this.#delete(token, previous);
    if (this.#entries.size >= this.limit) this.#deleteOldest();
    this.#entries.set(token, { owner, readAt: now });
    const tokens = this.#tokensByAgent.get(owner.agent.id);
    if (tokens) tokens.add(token);
    else this.#tokensByAgent.set(owner.agent.id, new Set([token]));
  }

  /** Forget every token of this agent (its standing just changed here). */
  forgetAgent(agentId: string): void {
    for (const token of this.#tokensByAgent.get(agentId) ?? []) this.#entries.delete(token);
    this.#tokensByAgent.delete(agentId);
  }

  /** How many tokens are held now (expired ones included until the next sweep). */
  get size(): number {
    return this.#entries.size;
  }

  #sweep(now: number): void {
    this.#sweptAt = now;
    for (const [token, entry] of this.#entries) if (now - entry.readAt >= this.ttlMs) this.#delete(token, entry);
  }

  #deleteOldest(): void {
    const oldest = this.#entries.entries().next();
    if (!oldest.done) this.#delete(oldest.value[0], oldest.value[1]);
  }

  #delete(token: string, entry: Entry): void {
    this.#entries.delete(token);
    const tokens = this.#tokensByAgent.get(entry.owner.agent.id);
    tokens?.delete(token);
    if (tokens?.size === 0) this.#tokensByAgent.delete(entry.owner.agent.id);
  }
}
