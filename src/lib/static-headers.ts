import { OAUTH_PATHS, protectedResourceMetadataPath } from "./discovery/oauth.ts";
import {
  API_SECURITY_HEADERS,
  CORS_HEADERS,
  isCorsType,
  type RouteEntry,
  SECURITY_HEADERS,
  takesDocumentPolicy,
} from "./manifest.ts";
import { CACHE_CONTROL } from "./outputs/artifact.ts";

/** The Markdown twin's URL of an HTML page (`/` → `/index.md`). */
export function twinOf(url: string): string {
  return url === "/" ? "/index.md" : `${url}.md`;
}

/** The HTML page a Markdown twin answers for (`/index.md` → `/`). */
export function pageOf(twinUrl: string): string {
  return twinUrl === "/index.md" ? "/" : twinUrl.slice(0, -".md".length);
}

/**
 * The security and CORS headers of every answer that is not a page (JSON, problems, text), whoever
 * builds it: the API (api/platform/http/responses.ts) and the nginx front's own problems
 * (src/lib/nginx-problems.ts). Tokens travel in Authorization, never in cookies, so a page on another
 * origin gains nothing its caller lacks by reading one.
 */
export const API_ANSWER_HEADERS: readonly [string, string][] = [
  ...Object.entries(API_SECURITY_HEADERS),
  ...Object.entries(CORS_HEADERS),
];

/** An answer built per request is never stored by a cache unless it says otherwise. */
export const DYNAMIC_CACHE_CONTROL = "no-store";

/** The head of a problem+json answer, bar its type, request id and the problem's own headers. */
export function problemHeaders(): [string, string][] {
  return [...API_ANSWER_HEADERS, ["Cache-Control", DYNAMIC_CACHE_CONTROL]];
}

/**
 * The service's AI usage preferences in the IETF aipref vocabulary (draft-ietf-aipref-vocab), sent
 * with every page and Markdown twin as the `Content-Usage` header (draft-ietf-aipref-attach §4). They
 * say what robots.txt's Content-Signal line says; they are not a robots.txt rule as well because
 * Lighthouse 13's robots.txt audit counts `Content-Usage` there as an unknown directive.
 */
export const CONTENT_USAGE = "train-ai=y, search=y";

/**
 * The headers a static file of the build is served with, whoever serves it (the embedded server,
 * api/site/site-files.ts, and the nginx front, src/lib/nginx-conf.ts): security headers, its cache
 * policy, CORS for data types, and the links RFC 8288 lets a client follow without parsing the body.
 * Content-Type, ETag, Content-Encoding and Vary are each server's own. `has` says which URLs the
 * build serves; `documentHeaders` are the security headers of a page (its CSP may name a payment
 * provider's origins at run time).
 */
export function staticFileHeaders(
  url: string,
  entry: RouteEntry,
  has: (url: string) => boolean,
  documentHeaders: readonly [string, string][] = Object.entries(SECURITY_HEADERS),
): { headers: [string, string][]; markdownTwin?: string } {
  const headers: [string, string][] = [
    ...(takesDocumentPolicy(entry.type) ? documentHeaders : Object.entries(API_SECURITY_HEADERS)),
    ["Cache-Control", CACHE_CONTROL[entry.cache]],
  ];
  if (isCorsType(entry.type)) headers.push(...Object.entries(CORS_HEADERS));
  if (entry.type.startsWith("text/html") || entry.type.startsWith("text/markdown"))
    headers.push(["Content-Usage", CONTENT_USAGE]);
  const twin = entry.type.startsWith("text/html") && has(twinOf(url)) ? twinOf(url) : undefined;
  if (twin) headers.push(["Link", `<${twin}>; rel="alternate"; type="text/markdown"`]);
  // The twin's page is canonical, so search engines index the HTML, not both.
  else if (url.endsWith(".md") && url !== "/index.md" && has(pageOf(url)))
    headers.push(["Link", `<${pageOf(url)}>; rel="canonical"`]);
  // RFC 9727 §2: the catalog names itself with rel="api-catalog", also in answer to HEAD.
  if (url === "/.well-known/api-catalog") headers.push(["Link", '</.well-known/api-catalog>; rel="api-catalog"']);
  if (url === "/") headers.push(["Link", homeLinkHeader(has)]);
  return twin ? { headers, markdownTwin: twin } : { headers };
}

/**
 * The home page's `Link` header (RFC 8288): where an agent finds the API catalog (RFC 9727), the
 * API description, the docs, llms.txt, its own entry points (agents.json, as the api-catalog's
 * `service-meta` names it) and the agent skills index (documentation for agents, RFC 8631
 * `service-doc`), and the Markdown version. Only targets that exist are named.
 */
function homeLinkHeader(has: (url: string) => boolean): string {
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
    // OAuth (RFC 8414, RFC 9728): no link relation is registered for either, so `service-meta` with a title.
    [OAUTH_PATHS.metadata, 'rel="service-meta"; type="application/json"; title="OAuth authorization server metadata"'],
    [
      protectedResourceMetadataPath("api"),
      'rel="service-meta"; type="application/json"; title="OAuth protected resource metadata: the HTTP API"',
    ],
    [
      protectedResourceMetadataPath("mcp-agent"),
      'rel="service-meta"; type="application/json"; title="OAuth protected resource metadata: the agent MCP endpoint"',
    ],
  ];
  return candidates
    .filter(([url]) => has(url))
    .map(([url, params]) => `<${url}>; ${params}`)
    .join(", ");
}
