import { randomUUID } from "node:crypto";
import type { H3Event } from "h3";

const REQUEST_ID = Symbol("request-id");
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/**
 * A request id as this service makes them: letters, digits, `.`, `_` and `-` only (the client's
 * sane id or a UUID), so it goes into a header, a JSON string or a log line as it is, unescaped.
 */
export type RequestId = string & { readonly [requestIdBrand]: true };
declare const requestIdBrand: unique symbol;

/** The client's `X-Request-Id` when it is sane, else a fresh one. */
export function requestIdFrom(supplied: string | null | undefined): RequestId {
  return (supplied && SANE_REQUEST_ID.test(supplied) ? supplied : randomUUID()) as RequestId;
}

/** The request's id (made on first use and kept for the rest of the request). */
export function requestIdOf(event: H3Event): RequestId {
  const context = event.context as { [REQUEST_ID]?: RequestId };
  context[REQUEST_ID] ??= requestIdFrom(event.req.headers.get("x-request-id"));
  return context[REQUEST_ID];
}
