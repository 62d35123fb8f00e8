import type { H3Event } from "h3";

const LIMITS = Symbol("rate-limit-headers");

/**
 * Remembers a request's RateLimit headers, so an error answered after the limit was counted (a
 * 422, a 409, a 503) carries them too: the draft asks for them on every response of a limited endpoint.
 */
export function rememberLimits(event: H3Event, headers: Record<string, string>): Record<string, string> {
  (event.context as { [LIMITS]?: Record<string, string> })[LIMITS] = headers;
  return headers;
}

export function limitsOf(event: H3Event): Record<string, string> {
  return (event.context as { [LIMITS]?: Record<string, string> })[LIMITS] ?? {};
}
