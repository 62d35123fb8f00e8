import { prefersMarkdown } from "../platform/http/accept.ts";
import type { SiteFiles, StaticRoute } from "./site-files.ts";

/** What a request for a static URL depends on. */
export interface StaticRequest {
  method: string;
  accept: string | null;
  ifNoneMatch: string | null;
}

/** A static URL's answer, ready for any server to write: the h3 app and the fast path write the same. */
export interface StaticAnswer {
  status: 200 | 304;
  headers: readonly [string, string][];
  /** `null` for HEAD and 304. */
  body: Uint8Array | null;
}

function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === etag || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * The answer for a URL of the build: its Markdown twin for a client that prefers Markdown (with
 * `Vary: Accept`), 304 when the ETag matches, and for HEAD the headers with the body's length.
 */
export function staticAnswer(site: SiteFiles, route: StaticRoute, request: StaticRequest): StaticAnswer {
  const twin = route.markdownTwin && prefersMarkdown(request.accept) ? site.routes.get(route.markdownTwin) : undefined;
  const chosen = twin ?? route;
  const headers = twin ? twin.negotiatedHeaders : route.headers;
  if (matchesEtag(request.ifNoneMatch, chosen.entry.etag)) return { status: 304, headers, body: null };
  if (request.method === "HEAD")
    return { status: 200, headers: [...headers, ["Content-Length", String(chosen.body.byteLength)]], body: null };
  return { status: 200, headers, body: chosen.body };
}
