import { ApiProblem } from "../problem.ts";
import { type LimitName, type RateLimitDecision, type RateLimiter, rateLimitHeaders } from "./rate-limiter.ts";

/**
 * Counts one request against named limits, one after another, keeping every decision so the response
 * lists each policy it was counted against. Over a limit it throws a 429 problem with Retry-After (the
 * end of that window) and the headers of every limit counted so far.
 */
export class LimitCounter {
  readonly #decisions: RateLimitDecision[] = [];
  /** Every count begun for this request, applied or not yet: what a refund gives back. */
  readonly #begun: Promise<RateLimitDecision>[] = [];

  private readonly limiter: RateLimiter;
  private readonly onHeaders: (headers: Record<string, string>) => void;

  constructor(
    limiter: RateLimiter,
    /** Told the headers after each count: a request's later error must carry them too. */
    onHeaders: (headers: Record<string, string>) => void = () => {},
  ) {
    this.limiter = limiter;
    this.onHeaders = onHeaders;
  }

  /**
   * Starts counting without deciding yet: the count can travel with other work (a token's lookup)
   * and be applied by `count` once the request has earned an answer from it.
   */
  begin(name: LimitName, subject: string): Promise<RateLimitDecision> {
    const decision = this.limiter.consume(name, subject);
    // Applied (and its failure reported) by `count`, or dropped with the request.
    decision.catch(() => undefined);
    this.#begun.push(decision);
    return decision;
  }

  /** Applies a count (begun here, or begun now): the RateLimit headers, or a 429 past the limit. */
  async count(name: LimitName, subject: string, begun?: Promise<RateLimitDecision>): Promise<Record<string, string>> {
    const decision = await (begun ?? this.begin(name, subject));
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
    if (this.#begun.length === 0) return;
    const taken = (await Promise.allSettled(this.#begun.splice(0))).flatMap((outcome) =>
      outcome.status === "fulfilled" ? [outcome.value] : [],
    );
    const refunded = new Map(
      await Promise.all(taken.map(async (decision) => [decision, await this.limiter.refund(decision)] as const)),
    );
    if (this.#decisions.length === 0) return;
    this.#decisions.splice(0, this.#decisions.length, ...this.#decisions.map((d) => refunded.get(d) ?? d));
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
