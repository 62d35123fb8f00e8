import type { H3Event } from "h3";
import { FastResponse } from "srvx";
import { SECURITY_HEADERS } from "../../../src/lib/manifest.ts";
import { API_ANSWER_HEADERS, DYNAMIC_CACHE_CONTROL } from "../../../src/lib/static-headers.ts";
import { markComplete } from "./complete-response.ts";
import { codeDynamicBody } from "./encoding/dynamic-coding.ts";
import { requestIdOf } from "./request-id.ts";

const DOCUMENT_SECURITY = Object.entries(SECURITY_HEADERS);

/**
 * Every header of a response this server builds whole: type, the security headers for its kind (and
 * CORS for all but HTML), the request id, the caller's extras, and Cache-Control (`no-store` unless
 * an extra says otherwise).
 */
export function responseHeaders(type: string, requestId: string, extra?: Record<string, string>): [string, string][] {
  // Everything but an HTML page may be read from any origin, as the preflight already allows.
  const security = type.startsWith("text/html") ? DOCUMENT_SECURITY : API_ANSWER_HEADERS;
  const headers: [string, string][] = [["Content-Type", type], ...security, ["X-Request-Id", requestId]];
  let cacheControl = DYNAMIC_CACHE_CONTROL;
  if (extra) {
    for (const name in extra) {
      const value = extra[name] ?? "";
      if (name === "Cache-Control") cacheControl = value;
      else headers.push([name, value]);
    }
  }
  headers.push(["Cache-Control", cacheControl]);
  return headers;
}

/**
 * Header tuples with their names in lower case: the bytes srvx writes for every response of the app,
 * whose Headers keep names in lower case. The fast path writes its answers with these, so both paths
 * send the same head (api/fast-path/README.md).
 */
export function namesAsWritten(headers: readonly (readonly [string, string])[]): [string, string][] {
  return headers.map(([name, value]) => [name.toLowerCase(), value]);
}

/**
 * A response built complete: every header as tuples, which srvx writes straight to the socket.
 * Building a Headers object and setting headers on it afterwards cost more than the rest of a
 * small JSON response. Every body the API builds passes here, so this is where a large one is
 * compressed for a client that accepts it, and where a body with an ETag the client already has
 * becomes a 304 (`codeDynamicBody`).
 */
export function completeResponse(
  event: H3Event,
  body: string | null,
  init: { status: number; type: string; headers?: Record<string, string> },
): Response {
  const method = event.req.method;
  const coded = codeDynamicBody(responseHeaders(init.type, requestIdOf(event), init.headers), body, {
    method,
    acceptEncoding: event.req.headers.get("accept-encoding"),
    // Only a successful read can be "not modified" (RFC 9110 §13.1.2).
    ifNoneMatch:
      init.status === 200 && (method === "GET" || method === "HEAD") ? event.req.headers.get("if-none-match") : null,
  });
  const status = coded.notModified ? 304 : init.status;
  return markComplete(new FastResponse(coded.body as BodyInit | null, { status, headers: coded.headers }));
}

export function jsonResponse(
  event: H3Event,
  value: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return completeResponse(event, JSON.stringify(value), {
    status: init.status ?? 200,
    type: "application/json",
    headers: init.headers,
  });
}

export function redirectResponse(event: H3Event, location: string, status: 302 | 303 | 301 | 308 = 303): Response {
  return completeResponse(event, null, { status, type: "text/plain; charset=utf-8", headers: { Location: location } });
}
