import { H3, type H3Event, type HTTPError } from "h3";
import { CORS_HEADERS } from "../src/lib/manifest.ts";
import { registerAgentRoutes } from "./agents/routes.ts";
import type { AppServices } from "./app-services.ts";
import { registerCheckRoutes } from "./checks/routes.ts";
import { isUnavailableError } from "./db/database.ts";
import { registerMcpRoutes } from "./mcp/routes.ts";
import { registerPaymentWebhookRoutes } from "./payments/webhook-route.ts";
import { logRequestLine } from "./platform/access-log.ts";
import { clientAddress } from "./platform/http/client.ts";
import { isComplete } from "./platform/http/complete-response.ts";
import { documentHeadersFor } from "./platform/http/document-headers.ts";
import { requestIdOf } from "./platform/http/request-id.ts";
import { isStaticRequest } from "./platform/http/static-request.ts";
import { enforceRateLimit, rememberLimits } from "./platform/limits/enforce.ts";
import type { Logger } from "./platform/log.ts";
import { ApiProblem, problemResponse } from "./platform/problem.ts";
import type { AppConfig, RouteDeps } from "./platform/route-deps.ts";
import type { AstroHandler } from "./site/astro-handler.ts";
import { registerHealthRoutes } from "./site/health-routes.ts";
import { liveDiscovery } from "./site/live-discovery.ts";
import { registerPageRoutes } from "./site/page-routes.ts";
import { registerServiceRoutes } from "./site/service-routes.ts";
import type { SiteFiles } from "./site/site-files.ts";
import { registerStaticRoutes } from "./site/static-routes.ts";
import { registerStoreRoutes } from "./store/routes.ts";
import { registerWaitlistRoutes } from "./waitlists/routes.ts";

export interface AppDeps {
  config: AppConfig;
  log: Logger;
  site: SiteFiles | null;
  services: AppServices;
  /** The build's on-demand page renderer; without it those pages answer 404. */
  pages?: AstroHandler | null;
}

const STARTED = Symbol("started");
interface Timed {
  [STARTED]?: number;
}

/** Builds the app from its dependencies; no I/O here (the server opens files and databases). */
export function createApp(deps: AppDeps): H3 {
  const documentHeaders = documentHeadersFor(deps.config);
  const app = new H3({
    silent: true,
    onRequest(event) {
      (event.context as Timed)[STARTED] = performance.now();
    },
    onResponse(response, event) {
      if (!isComplete(response)) {
        for (const [name, value] of documentHeaders) response.headers.set(name, value);
        response.headers.set("X-Request-Id", requestIdOf(event));
      }
      // Static files are the CDN's business: logged at debug level only.
      const level = isStaticRequest(event) ? "debug" : "info";
      if (!deps.log.isLevelEnabled(level)) return;
      const started = (event.context as Timed)[STARTED] ?? performance.now();
      logRequestLine(deps.log, level, {
        requestId: requestIdOf(event),
        method: event.req.method,
        path: event.url.pathname,
        status: response.status,
        ms: performance.now() - started,
      });
    },
    onError(error, event) {
      return errorToResponse(error, event, deps);
    },
  });
  const routeDeps: RouteDeps = { config: deps.config, services: deps.services, log: deps.log };
  app.options("/**", () => new Response(null, { status: 204, headers: preflightHeaders() }));
  registerHealthRoutes(app);
  registerServiceRoutes(app, routeDeps);
  registerAgentRoutes(app, routeDeps);
  registerWaitlistRoutes(app, routeDeps);
  registerCheckRoutes(app, routeDeps);
  registerStoreRoutes(app, routeDeps);
  registerPaymentWebhookRoutes(app, routeDeps);
  registerMcpRoutes(app, routeDeps);
  if (deps.pages) registerPageRoutes(app, routeDeps, deps.pages);
  const discovery = { content: deps.services.content, siteUrl: deps.config.siteUrl, docsUrl: deps.config.docsUrl };
  const extras = {
    openapi: deps.site?.routes.has("/openapi.json") ?? false,
    mcpCard: deps.site?.routes.has("/.well-known/mcp/server-card.json") ?? false,
  };
  // Static routes last: their catch-all answers everything no other route took.
  registerStaticRoutes(app, {
    site: deps.site,
    live: liveDiscovery(discovery, deps.services, extras),
    countApiMiss: async (event) =>
      rememberLimits(
        event,
        await enforceRateLimit(deps.services.limiter, "api-misses", clientAddress(event, deps.config.trustProxy)),
      ),
  });
  return app;
}

function preflightHeaders(): Headers {
  return new Headers({
    ...CORS_HEADERS,
    "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
    "Access-Control-Allow-Headers":
      "Authorization, Content-Type, If-None-Match, Idempotency-Key, MCP-Protocol-Version, Last-Event-ID",
    "Access-Control-Max-Age": "86400",
  });
}

/** Every failure leaves as a problem; anything unexpected is a 500 that says nothing of why. */
function errorToResponse(error: HTTPError, event: H3Event, deps: AppDeps): Response {
  const cause: unknown = error.cause;
  const problem = cause instanceof ApiProblem ? cause : fromUnexpected(error, deps, requestIdOf(event));
  return problemResponse(event, problem, deps.config.siteUrl);
}

function fromUnexpected(error: HTTPError, deps: AppDeps, requestId: string): ApiProblem {
  const original = error.cause instanceof Error ? error.cause : error;
  if (isUnavailableError(original)) {
    // The next state reading re-probes, so discovery and /status.json show the outage at once.
    deps.services.monitor.invalidate();
    deps.log.warn({ req_id: requestId, err: original.message }, "database unavailable");
    return new ApiProblem("service-unavailable", "The database is unavailable; /status.json shows the details.", {
      headers: { "Retry-After": "30" },
    });
  }
  if (error.unhandled || error.status >= 500) {
    deps.log.error({ req_id: requestId, err: { message: original.message, stack: original.stack } }, "unhandled error");
    return new ApiProblem("internal-error", "The request could not be completed. It has been logged.");
  }
  if (error.status === 404) return new ApiProblem("not-found", "Nothing is published at this address.");
  if (error.status === 405) return new ApiProblem("method-not-allowed", "This address does not accept that method.");
  if (error.status === 413) return new ApiProblem("payload-too-large", "The request body is too large.");
  if (error.status === 415) return new ApiProblem("unsupported-media-type", "Send the body as application/json.");
  return new ApiProblem("bad-request", "The request could not be understood.");
}
