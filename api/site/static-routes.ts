import type { H3, H3Event } from "h3";
import { FastResponse } from "srvx";
import { prefersMarkdown } from "../platform/http/accept.ts";
import { markComplete } from "../platform/http/complete-response.ts";
import { markStatic } from "../platform/http/static-request.ts";
import { methodNotAllowed, methodsForPath } from "../platform/operation-match.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { SiteFiles, StaticRoute } from "./site-files.ts";
import { staticAnswer } from "./static-answer.ts";

export interface StaticDeps {
  site: SiteFiles | null;
  /** Counts a request under /api/ that matched nothing; returns its RateLimit headers (throws 429 over the limit). */
  countApiMiss?: (event: H3Event) => Promise<Record<string, string>>;
  /** Live documents (capabilities, service state…) computed per request from the base file. */
  live: Map<string, (event: H3Event, base: StaticRoute) => Response | Promise<Response>>;
}

const NOT_FOUND_MARKDOWN =
  "# Not found\n\nNothing is published at this address. Start at /llms.txt for the documentation index.\n";

/**
 * Serves every URL of the build from memory: content type and cache policy from the manifest,
 * ETag/304, CORS on public documents, Markdown for clients that ask for it, and the right 404 or
 * 405 otherwise. Each URL gets its own route (the router's static lookup is a hash map; a `/**`
 * catch-all on the hot path measured 2.3× slower), and the catch-all handles the rest.
 */
export function registerStaticRoutes(app: H3, deps: StaticDeps): void {
  const site = deps.site;
  for (const route of site?.routes.values() ?? []) {
    // The router reads `:` and `*` as parameters; such URLs (none today) are left to the catch-all.
    if (/[:*]/.test(route.url)) continue;
    const live = route.entry.live ? deps.live.get(route.url) : undefined;
    const handle = (event: H3Event) =>
      live ? live(event, route) : site ? respond(event, site, route) : serve(event, deps);
    // The router also matches `/docs/store/`; one address per page, so that form is redirected.
    app.get(route.url, (event) =>
      event.url.pathname === route.url ? handle(event) : canonicalRedirect(event, route.url),
    );
  }
  app.all("/**", (event) => serve(event, deps));
}

/** Everything the per-URL routes did not take: HEAD, other methods, unknown paths, a missing build. */
async function serve(event: H3Event, deps: StaticDeps): Promise<Response> {
  const path = event.url.pathname;
  const method = event.req.method;
  const { site } = deps;
  if (!site) {
    throw new ApiProblem("service-unavailable", "The site has not been built yet; run `npm run build`.", {
      headers: { "Retry-After": "30" },
    });
  }
  const route = site.routes.get(path);
  const served = route !== undefined && (method === "GET" || method === "HEAD");
  // A miss under /api/ counts against a per-address limit (its headers go on the problem).
  if (!served && path.startsWith("/api/") && deps.countApiMiss) await deps.countApiMiss(event);
  if (!route) return notFound(event, site, path, method);
  if (!served)
    throw new ApiProblem("method-not-allowed", `${path} answers GET and HEAD only.`, {
      headers: { Allow: "GET, HEAD" },
    });
  const live = route.entry.live ? deps.live.get(path) : undefined;
  return live ? live(event, route) : respond(event, site, route);
}

/**
 * A static response is complete when built: srvx's FastResponse writes the byte body and the header
 * tuples straight to the socket, and the app's response hook leaves it alone (see `markComplete`).
 * The fast path (api/fast-path/) writes the same `staticAnswer` on node:http.
 */
export function respond(event: H3Event, site: SiteFiles, route: StaticRoute): Response {
  markStatic(event);
  const headers = event.req.headers;
  const answer = staticAnswer(site, route, {
    method: event.req.method,
    accept: headers.get("accept"),
    acceptEncoding: headers.get("accept-encoding"),
    ifNoneMatch: headers.get("if-none-match"),
  });
  return markComplete(
    new FastResponse(answer.body as BodyInit | null, {
      status: answer.status,
      headers: answer.headers as [string, string][],
    }),
  );
}

function canonicalRedirect(event: H3Event, url: string): Response {
  return new FastResponse(null, {
    status: 301,
    headers: { Location: url + event.url.search, "Cache-Control": "public, max-age=3600" },
  });
}

/** Paths machines read: an unknown one answers a problem, not the HTML page for people. */
const MACHINE_PREFIXES = ["/api/", "/schemas/", "/.well-known/", "/oauth/"];

function notFound(event: H3Event, site: SiteFiles, path: string, method: string): Response {
  if (path.length > 1 && path.endsWith("/") && site.routes.has(path.slice(0, -1)))
    return canonicalRedirect(event, path.slice(0, -1));
  const allowed = methodsForPath(path);
  if (allowed.length > 0 && !allowed.includes(method)) throw methodNotAllowed(path, method, allowed);
  const docSegments = path.startsWith("/docs/") ? path.slice("/docs/".length).split("/").length : 0;
  if (MACHINE_PREFIXES.some((prefix) => path.startsWith(prefix)) || docSegments > 4) {
    const detail =
      docSegments > 4 ? "Documentation paths have at most four segments." : `Nothing is published at ${path}.`;
    throw new ApiProblem("not-found", detail);
  }
  const markdown = prefersMarkdown(event.req.headers.get("accept"));
  if (markdown || !site.notFoundHtml) {
    return new FastResponse(method === "HEAD" ? null : NOT_FOUND_MARKDOWN, {
      status: 404,
      headers: { "Content-Type": "text/markdown; charset=utf-8", "Cache-Control": "no-store", Vary: "Accept" },
    });
  }
  return new FastResponse(method === "HEAD" ? null : (site.notFoundHtml as BodyInit), {
    status: 404,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store", Vary: "Accept" },
  });
}
