import type { H3Event } from "h3";
import { ApiProblem } from "../problem.ts";
import { type LimitName, type RateLimiter, rateLimitHeaders } from "./rate-limiter.ts";

/**
 * Counts the request against each named limit for `subject`, in order. Returns the RateLimit
 * headers for the response; over a limit, throws a 429 problem with Retry-After (the end of that
 * window) and counts nothing further.
 */
export async function enforceRateLimit(
  limiter: RateLimiter,
  name: LimitName,
  subject: string,
  ...more: LimitName[]
): Promise<Record<string, string>> {
  const decisions = [];
  for (const limit of [name, ...more]) {
    const decision = await limiter.consume(limit, subject);
    decisions.push(decision);
    if (!decision.allowed) {
      throw new ApiProblem(
        "rate-limited",
        `Over the limit of ${decision.policy.limit} requests per ${decision.policy.windowSeconds} s; try again in ${decision.resetSeconds} s.`,
        {
          headers: { ...rateLimitHeaders(...decisions), "Retry-After": String(decision.resetSeconds) },
          extra: { violated_policies: [limit] },
        },
      );
    }
  }
  return rateLimitHeaders(...decisions);
}

const LIMITS = Symbol("rate-limit-headers");

/**
 * Remembers a request's RateLimit headers, so an error answered after the limit was counted (a
 * 422, a 409) carries them too: the draft asks for them on every response of a limited endpoint.
 */
export function rememberLimits(event: H3Event, headers: Record<string, string>): Record<string, string> {
  (event.context as { [LIMITS]?: Record<string, string> })[LIMITS] = headers;
  return headers;
}

export function limitsOf(event: H3Event): Record<string, string> {
  return (event.context as { [LIMITS]?: Record<string, string> })[LIMITS] ?? {};
}
