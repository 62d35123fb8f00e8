import { ApiProblem } from "../problem.ts";
import { type LimitName, type RateLimitDecision, type RateLimiter, rateLimitHeaders } from "./rate-limiter.ts";

/**
 * Counts one request against named limits, one after another, keeping every decision so the response
 * lists each policy it was counted against. Over a limit it throws a 429 problem with Retry-After (the
 * end of that window) and the headers of every limit counted so far.
 */
export class LimitCounter {
  readonly #decisions: RateLimitDecision[] = [];

  constructor(
    private readonly limiter: RateLimiter,
    /** Told the headers after each count: a request's later error must carry them too. */
    private readonly onHeaders: (headers: Record<string, string>) => void = () => {},
  ) {}

  async count(name: LimitName, subject: string): Promise<Record<string, string>> {
    const decision = await this.limiter.consume(name, subject);
    this.#decisions.push(decision);
    const headers = rateLimitHeaders(...this.#decisions);
    this.onHeaders(headers);
    if (!decision.allowed) {
      throw new ApiProblem(
        "rate-limited",
        `Over the limit of ${decision.policy.limit} requests per ${decision.policy.windowSeconds} s; try again in ${decision.resetSeconds} s.`,
        { headers: { ...headers, "Retry-After": String(decision.resetSeconds) }, extra: { violated_policies: [name] } },
      );
    }
    return headers;
  }

  /**
   * Gives back every count of this request: the service refused it (a 503), so the caller did nothing
   * that should cost it. The headers then show the remaining allowance as it stands.
   */
  async refund(): Promise<void> {
    if (this.#decisions.length === 0) return;
    const refunded = await Promise.all(this.#decisions.map((decision) => this.limiter.refund(decision)));
    this.#decisions.splice(0, this.#decisions.length, ...refunded);
    this.onHeaders(rateLimitHeaders(...this.#decisions));
  }
}

/** Counts the request against each named limit for `subject`, in order; the RateLimit headers, or a 429. */
export async function enforceRateLimit(
  limiter: RateLimiter,
  name: LimitName,
  subject: string,
  ...more: LimitName[]
): Promise<Record<string, string>> {
  const counter = new LimitCounter(limiter);
  let headers: Record<string, string> = {};
  for (const limit of [name, ...more]) headers = await counter.count(limit, subject);
  return headers;
}
