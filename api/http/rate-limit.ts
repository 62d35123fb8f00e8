import { rateLimitHeaders, type LimitName, type RateLimiter } from "../services/rate-limiter.ts";
import { ApiProblem } from "./problem.ts";

/**
 * Counts the request against the named limit for `subject`. Returns the RateLimit headers for the
 * response; over the limit, throws a 429 problem with Retry-After (the end of the window).
 */
export async function enforceRateLimit(limiter: RateLimiter, name: LimitName, subject: string): Promise<Record<string, string>> {
  const decision = await limiter.consume(name, subject);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new ApiProblem("rate-limited", `Over the limit of ${decision.policy.limit} requests per ${decision.policy.windowSeconds} s; try again in ${decision.resetSeconds} s.`, {
      headers: { ...headers, "Retry-After": String(decision.resetSeconds) },
      extra: { violated_policies: [name] },
    });
  }
  return headers;
}
