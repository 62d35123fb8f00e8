import { prefersMarkdown } from "../platform/http/accept.ts";
import { chooseContentCoding } from "../platform/http/encoding/accept-encoding.ts";
import { ifNoneMatchNames } from "../platform/http/if-none-match.ts";
import type { SiteFiles, StaticRoute } from "./site-files.ts";

/** What a request for a static URL depends on. */
export interface StaticRequest {
  method: string;
  accept: string | null;
  acceptEncoding: string | null;
  ifNoneMatch: string | null;
}

/** A static URL's answer, ready for any server to write: the h3 app and the fast path write the same. */
export interface StaticAnswer {
  status: 200 | 304;
  headers: readonly [string, string][];
  /** `null` for HEAD and 304. */
  body: Uint8Array | null;
}

/**
 * The answer for a URL of the build: its Markdown twin for a client that prefers Markdown (with
 * `Vary: Accept`), the build's `.br` or `.gz` copy for a client that accepts it (with its own ETag),
 * 304 when the ETag of that answer matches, and for HEAD the headers with the body's length.
 */
export function staticAnswer(site: SiteFiles, route: StaticRoute, request: StaticRequest): StaticAnswer {
  const twin = route.markdownTwin && prefersMarkdown(request.accept) ? site.routes.get(route.markdownTwin) : undefined;
  const chosen = twin ?? route;
  const coding = chooseContentCoding(request.acceptEncoding, chosen.coded);
  const variant = (coding && chosen.coded[coding]) || chosen;
  const headers = twin ? variant.negotiatedHeaders : variant.headers;
  if (ifNoneMatchNames(request.ifNoneMatch, [variant.etag])) return { status: 304, headers, body: null };
  if (request.method === "HEAD")
    return { status: 200, headers: [...headers, ["content-length", String(variant.body.byteLength)]], body: null };
  return { status: 200, headers, body: variant.body };
}
