import { FastResponse } from "srvx";
/** A JSON response with its own (mutable) headers, so the app's response hook can add to them. */
export function jsonResponse(value: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = new Headers({ "Content-Type": "application/json", "Cache-Control": "no-store", ...init.headers });
  return new FastResponse(JSON.stringify(value), { status: init.status ?? 200, headers });
}

export function htmlResponse(html: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  const headers = new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", ...init.headers });
  return new FastResponse(html, { status: init.status ?? 200, headers });
}

export function redirectResponse(location: string, status: 302 | 303 | 301 | 308 = 303): Response {
  return new FastResponse(null, { status, headers: { Location: location, "Cache-Control": "no-store" } });
}
