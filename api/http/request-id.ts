import { randomUUID } from "node:crypto";
import type { H3Event } from "h3";

const REQUEST_ID = Symbol("request-id");

/** The request's id: the client's `X-Request-Id` when it is sane, else a fresh one (made on first use). */
export function requestIdOf(event: H3Event): string {
  const context = event.context as { [REQUEST_ID]?: string };
  if (!context[REQUEST_ID]) {
    const supplied = event.req.headers.get("x-request-id");
    context[REQUEST_ID] = supplied && /^[A-Za-z0-9._-]{8,64}$/.test(supplied) ? supplied : randomUUID();
  }
  return context[REQUEST_ID];
}
