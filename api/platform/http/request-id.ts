import { randomUUID } from "node:crypto";
import type { H3Event } from "h3";

const REQUEST_ID = Symbol("request-id");
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** The client's `X-Request-Id` when it is sane, else a fresh one. */
export function requestIdFrom(supplied: string | null | undefined): string {
  return supplied && SANE_REQUEST_ID.test(supplied) ? supplied : randomUUID();
}

/** The request's id (made on first use and kept for the rest of the request). */
export function requestIdOf(event: H3Event): string {
  const context = event.context as { [REQUEST_ID]?: string };
  context[REQUEST_ID] ??= requestIdFrom(event.req.headers.get("x-request-id"));
  return context[REQUEST_ID];
}
