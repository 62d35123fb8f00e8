import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  API_SECURITY_HEADERS,
  CORS_HEADERS,
  isCorsType,
  type RouteEntry,
  type RouteManifest,
  SECURITY_HEADERS,
  takesDocumentPolicy,
} from "../../src/lib/manifest.ts";
import { CACHE_CONTROL } from "../../src/lib/outputs/artifact.ts";

/** One public URL held in memory with its response headers computed once. */
export interface StaticRoute {
  url: string;
  body: Uint8Array;
  entry: RouteEntry;
  /** Every response header (security headers included) except Content-Length, computed once. */
  headers: readonly [string, string][];
  /** The headers when this route answers for its HTML page's URL (a Markdown twin): `Vary: Accept` added. */
  negotiatedHeaders: readonly [string, string][];
  /** The Markdown twin's URL, for HTML pages that have one (`Accept: text/markdown`). */
  markdownTwin?: string;
}

export interface SiteFiles {
  manifest: RouteManifest;
  routes: Map<string, StaticRoute>;
  notFoundHtml: Uint8Array | null;
}

function twinOf(url: string): string {
  return url === "/" ? "/index.md" : `${url}.md`;
}

/**
 * Loads the build into memory: every file the manifest lists, with its headers. `null` when there is
 * no build yet (the server then answers 503 for static URLs rather than crashing).
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
  const routes = new Map<string, StaticRoute>();
  await Promise.all(
    Object.entries(manifest.routes).map(async ([url, entry]) => {
      const body = await readFile(join(clientDir, entry.file));
      routes.set(url, { url, body, entry, headers: [], negotiatedHeaders: [] });
    }),
  );
  for (const route of routes.values()) {
    const twin =
      route.entry.type.startsWith("text/html") && routes.has(twinOf(route.url)) ? twinOf(route.url) : undefined;
    const headers: [string, string][] = [
      ...(takesDocumentPolicy(route.entry.type) ? documentHeaders : Object.entries(API_SECURITY_HEADERS)),
      ["Content-Type", route.entry.type],
      ["Cache-Control", CACHE_CONTROL[route.entry.cache]],
      ["ETag", route.entry.etag],
    ];
    if (isCorsType(route.entry.type)) headers.push(...Object.entries(CORS_HEADERS));
    if (twin) {
      headers.push(["Vary", "Accept"], ["Link", `<${twin}>; rel="alternate"; type="text/markdown"`]);
    } else if (route.url.endsWith(".md") && route.url !== "/index.md") {
      // The twin's page is canonical, so search engines index the HTML, not both.
      const page = route.url.slice(0, -3);
      if (routes.has(page)) headers.push(["Link", `<${page}>; rel="canonical"`]);
    }
    routes.set(route.url, { ...route, headers, ...(twin ? { markdownTwin: twin } : {}) });
  }
  // RFC 9727 §2: the catalog names itself with rel="api-catalog", also in answer to HEAD.
  const catalog = routes.get("/.well-known/api-catalog");
  if (catalog)
    routes.set(catalog.url, {
      ...catalog,
      headers: [...catalog.headers, ["Link", '</.well-known/api-catalog>; rel="api-catalog"']],
    });
  const home = routes.get("/");
  if (home) routes.set("/", { ...home, headers: [...home.headers, ["Link", homeLinkHeader(routes)]] });
  // A Markdown twin answering for its page's URL varies by Accept; built once, after every header is final.
  for (const route of routes.values()) route.negotiatedHeaders = [...route.headers, ["Vary", "Accept"]];
  let notFoundHtml: Uint8Array | null = null;
  try {
    notFoundHtml = await readFile(join(clientDir, manifest.not_found));
  } catch {
    notFoundHtml = null;
  }
  return { manifest, routes, notFoundHtml };
}

/**
 * The home page's `Link` header (RFC 8288): where an agent finds the API catalog (RFC 9727), the
 * API description, the docs, llms.txt, its own entry points (agents.json, as the api-catalog's
 * `service-meta` names it) and the agent skills index (documentation for agents, RFC 8631
 * `service-doc`), and the Markdown version. Only targets that exist are named.
 */
function homeLinkHeader(routes: Map<string, StaticRoute>): string {
  const candidates: [string, string][] = [
    ["/.well-known/api-catalog", 'rel="api-catalog"; type="application/linkset+json"'],
    ["/openapi.json", 'rel="service-desc"; type="application/vnd.oai.openapi+json"'],
    ["/docs", 'rel="service-doc"; type="text/html"'],
    ["/llms.txt", 'rel="describedby"; type="text/plain"'],
    ["/agents.json", 'rel="service-meta"; type="application/json"; title="Agent entry points"'],
    ["/.well-known/agent-skills/index.json", 'rel="service-doc"; type="application/json"; title="Agent skills index"'],
    ["/terms.json", 'rel="terms-of-service"; type="application/json"'],
    ["/policies/privacy", 'rel="privacy-policy"; type="text/html"'],
    ["/.well-known/ai-catalog.json", 'rel="ai-catalog"; type="application/ai-catalog+json"'],
    ["/.well-known/ard.json", 'rel="ard"; type="application/ai-catalog+json"'],
  ];
  return candidates
    .filter(([url]) => routes.has(url))
    .map(([url, params]) => `<${url}>; ${params}`)
    .join(", ");
}
