import { createHmac } from "node:crypto";
import type { RateLimitName } from "../../../src/lib/registry.ts";
import type { Sql } from "../../db/sql.ts";
import { consumeInDatabase, purgeExpiredCounters, refundInDatabase } from "./rate-limits-sql.ts";

export interface RateLimitPolicy {
  limit: number;
  windowSeconds: number;
}

/** Defaults per named limit (requests per window); `RATE_LIMITS` overrides any of them. */
export const DEFAULT_RATE_LIMITS: Record<
  RateLimitName | "agent-auth-failures" | "checks-daily" | "api-misses" | "oauth",
  RateLimitPolicy
> = {
  checks: { limit: 10, windowSeconds: 60 },
  // Watching a site, confirming and unsubscribing: each request may queue an e-mail, so as tight as checks.
  monitors: { limit: 10, windowSeconds: 60 },
  // The free checks a client may run a day; compose.ts takes the number from content/pricing.yaml.
  "checks-daily": { limit: 20, windowSeconds: 86_400 },
  "check-payments": { limit: 10, windowSeconds: 60 },
  "store-checkout": { limit: 10, windowSeconds: 60 },
  "session-lookup": { limit: 60, windowSeconds: 60 },
  downloads: { limit: 60, windowSeconds: 60 },
  "agent-writes": { limit: 30, windowSeconds: 60 },
  "agent-register": { limit: 10, windowSeconds: 3600 },
  waitlist: { limit: 5, windowSeconds: 60 },
  // Every POST /mcp and GET /api/v1/tools; a tool call also counts against its HTTP twin's limit.
  mcp: { limit: 120, windowSeconds: 60 },
  // Requests under /api/ that match nothing (404, 405): probing for endpoints costs the prober.
  "api-misses": { limit: 300, windowSeconds: 60 },
  // Failed token presentations per client address: guessing tokens costs the guesser, not the owner.
  "agent-auth-failures": { limit: 20, windowSeconds: 60 },
  // Posts to the authorization server (registration, token, revocation, consent) per client address.
  oauth: { limit: 60, windowSeconds: 60 },
};
export type LimitName = keyof typeof DEFAULT_RATE_LIMITS;

export interface RateLimitDecision {
  allowed: boolean;
  name: LimitName;
  policy: RateLimitPolicy;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  /** The counter this decision counted on (the limit and the subject): what a refund gives back to. */
  key: string;
}

interface Counter {
  count: number;
  windowEndsAt: number;
}

export interface RateLimitStore {
  consume(key: string, windowMs: number, now: number): Promise<Counter> | Counter;
  /** Takes back one count still inside its window (a request the service itself refused). */
  refund(key: string, now: number): Promise<void> | void;
}

/** One process: a map of fixed windows, swept as they expire. */
export class MemoryRateLimitStore implements RateLimitStore {
  #counters = new Map<string, Counter>();
  #nextSweep = 0;

  consume(key: string, windowMs: number, now: number): Counter {
    if (now >= this.#nextSweep) {
      for (const [stored, counter] of this.#counters) if (counter.windowEndsAt <= now) this.#counters.delete(stored);
      this.#nextSweep = now + 10_000;
    }
    const counter = this.#counters.get(key);
    if (!counter || counter.windowEndsAt <= now) {
      this.#counters.set(key, { count: 1, windowEndsAt: now + windowMs });
      return { count: 1, windowEndsAt: now + windowMs };
    }
    counter.count++;
    // A copy: the caller reads it after an await, when other requests may have counted since.
    return { count: counter.count, windowEndsAt: counter.windowEndsAt };
  }

  refund(key: string, now: number): void {
    const counter = this.#counters.get(key);
    if (counter && counter.windowEndsAt > now && counter.count > 0) counter.count--;
  }
}

/** Several instances: counters in the database, one atomic upsert per request. */
/**
 * Counters every instance shares, in the database. A counter's key holds a client's address, which the database
 * must not keep (docs: rate limits, "For operators"): it is stored as an HMAC under a key derived from the server
 * secret, so instances agree on it and a copy of the database names nobody. A rotated secret starts every window
 * afresh, which costs a client at most one window's allowance.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  #nextPurge = 0;
  private readonly client: () => Sql;
  private readonly hashKey: Buffer;

  constructor(client: () => Sql, serverSecret: string) {
    this.client = client;
    this.hashKey = createHmac("sha256", serverSecret).update("rate-limit-counters").digest();
  }

  #stored(key: string): string {
    return createHmac("sha256", this.hashKey).update(key).digest("base64url");
  }

  async consume(key: string, windowMs: number, now: number): Promise<Counter> {
    if (now >= this.#nextPurge) {
      this.#nextPurge = now + 60_000;
      await purgeExpiredCounters(this.client(), now);
    }
    return consumeInDatabase(this.client(), this.#stored(key), windowMs, now);
  }

  async refund(key: string, now: number): Promise<void> {
    await refundInDatabase(this.client(), this.#stored(key), now);
  }
}

export class RateLimiter {
  private readonly store: RateLimitStore;
  private readonly policies: Record<LimitName, RateLimitPolicy>;
  private readonly now: () => number;

  constructor(store: RateLimitStore, policies: Record<LimitName, RateLimitPolicy>, now: () => number = Date.now) {
    this.store = store;
    this.policies = policies;
    this.now = now;
  }

  policy(name: LimitName): RateLimitPolicy {
    return this.policies[name];
  }

  /** Counts one request for `subject` (an address or a token id) against the named limit. */
  async consume(name: LimitName, subject: string): Promise<RateLimitDecision> {
    const policy = this.policies[name];
    const now = this.now();
    const key = `${name}:${subject}`;
    const counter = await this.store.consume(key, policy.windowSeconds * 1000, now);
    return {
      key,
      allowed: counter.count <= policy.limit,
      name,
      policy,
      remaining: Math.max(0, policy.limit - counter.count),
      resetSeconds: Math.max(1, Math.ceil((counter.windowEndsAt - now) / 1000)),
    };
  }

  /** Takes back a count `consume` made: the request was refused by the service, not by the limit. */
  async refund(decision: RateLimitDecision): Promise<RateLimitDecision> {
    await this.store.refund(decision.key, this.now());
    return { ...decision, remaining: Math.min(decision.policy.limit, decision.remaining + 1) };
  }
}

export function ratePolicies(overrides: Record<string, RateLimitPolicy>): Record<LimitName, RateLimitPolicy> {
  const policies = { ...DEFAULT_RATE_LIMITS };
  for (const [name, policy] of Object.entries(overrides)) {
    if (!(name in policies)) throw new Error(`RATE_LIMITS names an unknown limit: ${name}`);
    policies[name as LimitName] = { limit: policy.limit, windowSeconds: policy.windowSeconds };
  }
  return policies;
}

/** `RateLimit-Policy` and `RateLimit` per draft-ietf-httpapi-ratelimit-headers: one list item per policy. */
export function rateLimitHeaders(...decisions: RateLimitDecision[]): Record<string, string> {
  return {
    "RateLimit-Policy": decisions
      .map((decision) => `"${decision.name}";q=${decision.policy.limit};w=${decision.policy.windowSeconds}`)
      .join(", "),
    RateLimit: decisions
      .map((decision) => `"${decision.name}";r=${decision.remaining};t=${decision.resetSeconds}`)
      .join(", "),
  };
}
