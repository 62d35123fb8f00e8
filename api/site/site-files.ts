import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { CONTENT_CODINGS, type ContentCoding } from "../../src/lib/compression.ts";
import { type RouteEntry, type RouteManifest, SECURITY_HEADERS } from "../../src/lib/manifest.ts";
import { pageOf, staticFileHeaders } from "../../src/lib/static-headers.ts";
import { namesAsWritten } from "../platform/http/responses.ts";

/** One stored form of a URL's bytes, as built or content-coded, with its response headers. */
export interface StaticVariant {
  body: Uint8Array;
  etag: string;
  /** Every response header (security headers included) except Content-Length, computed once. */
  headers: readonly [string, string][];
  /** The headers when this route answers for its HTML page's URL (a Markdown twin): `Vary: Accept` added. */
  negotiatedHeaders: readonly [string, string][];
}

/** One public URL held in memory: the bytes as built, and their precompressed codings when the build made them. */
export interface StaticRoute extends StaticVariant {
  url: string;
  entry: RouteEntry;
  /** The Markdown twin's URL, for HTML pages that have one (`Accept: text/markdown`). */
  markdownTwin?: string;
  /** The build's `.br` and `.gz` copies, read at start: no request pays for compression. */
  coded: Partial<Record<ContentCoding, StaticVariant>>;
}

export interface SiteFiles {
  manifest: RouteManifest;
  routes: Map<string, StaticRoute>;
  notFoundHtml: Uint8Array | null;
}

interface LoadedRoute {
  url: string;
  entry: RouteEntry;
  body: Uint8Array;
  coded: Partial<Record<ContentCoding, Uint8Array>>;
  /** Headers shared by every coding of the route: all but ETag, Content-Encoding and Vary. */
  common: [string, string][];
  markdownTwin?: string;
}

/**
 * Loads the build into memory: every file the manifest lists with its precompressed copies, and
 * their headers. `null` when there is no build yet (the server then answers 503 for static URLs
 * rather than crashing).
 */
export async function loadSiteFiles(
  distDir: string,
  documentHeaders: [string, string][] = Object.entries(SECURITY_HEADERS),
): Promise<SiteFiles | null> {
  let manifest: RouteManifest;
  try {
    manifest = JSON.parse(await readFile(join(distDir, "manifest.json"), "utf8")) as RouteManifest;
  } catch {
    return null;
  }
  const clientDir = join(distDir, "client");
  const loaded = new Map<string, LoadedRoute>();
  await Promise.all(
    Object.entries(manifest.routes).map(async ([url, entry]) => {
      const coded: LoadedRoute["coded"] = {};
      for (const coding of CONTENT_CODINGS) {
        const encoded = entry.encodings?.[coding];
        if (encoded) coded[coding] = await readFile(join(clientDir, encoded.file));
      }
      const body = await readFile(join(clientDir, entry.file));
      loaded.set(url, { url, entry, body, coded, common: [] });
    }),
  );
  for (const route of loaded.values()) {
    const { headers, markdownTwin } = staticFileHeaders(
      route.url,
      route.entry,
      (url) => loaded.has(url),
      documentHeaders,
    );
    route.common = [["Content-Type", route.entry.type], ...headers];
    if (markdownTwin) route.markdownTwin = markdownTwin;
  }
  const routes = new Map<string, StaticRoute>();
  for (const route of loaded.values()) routes.set(route.url, staticRoute(route, loaded));
  let notFoundHtml: Uint8Array | null = null;
  try {
    notFoundHtml = await readFile(join(clientDir, manifest.not_found));
  } catch {
    notFoundHtml = null;
  }
  return { manifest, routes, notFoundHtml };
}

const isCoded = (route: LoadedRoute | undefined) => route !== undefined && Object.keys(route.coded).length > 0;

/**
 * A route's answers, one per coding. Every answer a coding could change says `Vary: Accept-Encoding`,
 * also the uncoded one, so a shared cache keeps them apart; an HTML page and its Markdown twin answer
 * the page's URL together, so that URL varies by encoding when either is coded.
 */
function staticRoute(route: LoadedRoute, loaded: Map<string, LoadedRoute>): StaticRoute {
  const pageUrl = route.url.endsWith(".md") ? pageOf(route.url) : undefined;
  const page =
    pageUrl !== undefined && loaded.get(pageUrl)?.markdownTwin === route.url ? loaded.get(pageUrl) : undefined;
  const twin = route.markdownTwin ? loaded.get(route.markdownTwin) : undefined;
  const ownVary = [...(twin ? ["Accept"] : []), ...(isCoded(route) || isCoded(twin) ? ["Accept-Encoding"] : [])];
  const negotiatedVary = ["Accept", ...(isCoded(route) || isCoded(page) ? ["Accept-Encoding"] : [])];
  const variant = (body: Uint8Array, etag: string, coding?: ContentCoding): StaticVariant => {
    const headers: [string, string][] = [...route.common, ["ETag", etag]];
    if (coding) headers.push(["Content-Encoding", coding]);
    return {
      body,
      etag,
      headers: namesAsWritten(ownVary.length > 0 ? [...headers, ["Vary", ownVary.join(", ")]] : headers),
      negotiatedHeaders: namesAsWritten([...headers, ["Vary", negotiatedVary.join(", ")]]),
    };
  };
  const coded: StaticRoute["coded"] = {};
  for (const coding of CONTENT_CODINGS) {
    const body = route.coded[coding];
    const encoded = route.entry.encodings?.[coding];
    if (body && encoded) coded[coding] = variant(body, encoded.etag, coding);
  }
  return {
    url: route.url,
    entry: route.entry,
    ...variant(route.body, route.entry.etag),
    ...(route.markdownTwin ? { markdownTwin: route.markdownTwin } : {}),
    coded,
  };
}
