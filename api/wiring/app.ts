import { performance } from "node:perf_hooks";
import { H3, type H3Event, type HTTPError } from "h3";
import { currentPolicyVersions } from "../../src/lib/discovery/documents.ts";
import { MCP_AGENT_PATH, type ProtectedResource, type ResourceName } from "../../src/lib/discovery/oauth.ts";
import { CORS_HEADERS } from "../../src/lib/manifest.ts";
import { agentRoutes } from "../agents/routes.ts";
import { agentTools } from "../agents/tools.ts";
import { checkRoutes } from "../checks/routes.ts";
import { checkTools } from "../checks/tools.ts";
import type { Config } from "../config.ts";
import { isUnavailableError } from "../db/database.ts";
import { agentStandingHotRoute } from "../fast-path/agent-standing.ts";
import type { HotRoute } from "../fast-path/hot-routes.ts";
import { staticFileRoutes } from "../fast-path/static-files.ts";
import { ToolCatalogue } from "../mcp/catalogue.ts";
import { contentTools } from "../mcp/content-tools.ts";
import { agentEndpointGet, mcpRoutes } from "../mcp/routes.ts";
import { monitorRoutes } from "../monitors/routes.ts";
import { monitorTools } from "../monitors/tools.ts";
import { OAUTH_LIFETIMES } from "../oauth/provider.ts";
import { type OAuthRouteDeps, registerOAuthRoutes } from "../oauth/routes.ts";
import { paymentWebhookRoute } from "../payments/webhook-route.ts";
import { logRequestLine } from "../platform/access-log.ts";
import { CLIENT_CLOSED_REQUEST, ClientClosedRequest } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { isComplete } from "../platform/http/complete-response.ts";
import { documentHeadersFor } from "../platform/http/document-headers.ts";
import { requestIdOf } from "../platform/http/request-id.ts";
import { rememberLimits } from "../platform/http/request-limits.ts";
import { isStaticRequest } from "../platform/http/static-request.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import type { Logger } from "../platform/log.ts";
import { type HttpRoute, registerOperationRoutes } from "../platform/operations/http-routes.ts";
import { ApiProblem, problemResponse } from "../platform/problem.ts";
import type { AstroHandler } from "../site/astro-handler.ts";
import { keyDirectoryRoute } from "../site/key-directory.ts";
import { liveDiscovery } from "../site/live-discovery.ts";
import { registerPageRoutes } from "../site/page-routes.ts";
import { serviceRoutes } from "../site/service-routes.ts";
import type { SiteFiles } from "../site/site-files.ts";
import { registerStaticRoutes } from "../site/static-routes.ts";
import { storeRoutes } from "../store/routes.ts";
import { waitlistRoutes } from "../waitlists/routes.ts";
import { waitlistTools } from "../waitlists/tools.ts";
import type { AppServices } from "./app-services.ts";
import { pageServicesFor } from "./page-services.ts";

export type AppConfig = Pick<Config, "siteUrl" | "docsUrl" | "bodyLimitBytes" | "trustProxy" | "stripe">;

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
  app.options("/**", () => new Response(null, { status: 204, headers: preflightHeaders() }));
  const { config, services } = deps;
  registerOperationRoutes(app, operationRoutes(deps), {
    ...services.operationDeps,
    bodyLimitBytes: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    resource: resourceNamed(services, "api"),
  });
  registerOAuthRoutes(app, oauthRouteDeps(deps));
  app.get(
    MCP_AGENT_PATH,
    agentEndpointGet({
      auth: services.operationDeps.auth,
      resource: resourceNamed(services, "mcp-agent"),
      trustProxy: config.trustProxy,
    }),
  );
  if (deps.pages) {
    const pageServices = (address: string) => pageServicesFor(services, address);
    registerPageRoutes(app, { config, log: deps.log, pageServices }, deps.pages);
  }
  const discovery = { content: services.content, siteUrl: config.siteUrl, docsUrl: config.docsUrl };
  const extras = {
    openapi: deps.site?.routes.has("/openapi.json") ?? false,
    mcpCard: deps.site?.routes.has("/.well-known/mcp/server-card.json") ?? false,
  };
  // Static routes last: their catch-all answers everything no other route took.
  registerStaticRoutes(app, {
    site: deps.site,
    live: new Map([
      ...liveDiscovery(discovery, services.monitor, extras),
      keyDirectoryRoute(services.signingKeys, config.siteUrl),
    ]),
    countApiMiss: async (event) =>
      rememberLimits(
        event,
        await enforceRateLimit(services.limiter, "api-misses", clientAddress(event, config.trustProxy)),
      ),
  });
  return app;
}

/**
 * Every operation the server answers (the static build serves the rest): each feature's routes, built
 * from the registry. The one place that gathers them, with the MCP tools each feature exports.
 */
export function operationRoutes({ config, services, log }: Pick<AppDeps, "config" | "services" | "log">): HttpRoute[] {
  const { operations, operationDeps, content } = services;
  const tools = [
    ...contentTools(content),
    ...checkTools(operations.checks, operationDeps.bodySchemas),
    ...monitorTools(operations.monitors, operationDeps.bodySchemas),
    ...agentTools(operations.agents, operationDeps.bodySchemas),
    ...waitlistTools(operations.waitlists, operationDeps.bodySchemas),
  ];
  const catalogue = new ToolCatalogue(tools);
  // The agent endpoint serves the tools that act for a registration: the ones a token is needed for.
  const agentCatalogue = new ToolCatalogue(tools.filter((tool) => tool.authentication === "bearer"));
  const site = { content, siteUrl: config.siteUrl, docsUrl: config.docsUrl, builtAt: services.now().toISOString() };
  return [
    ...serviceRoutes(services.monitor, content.service, currentPolicyVersions(content)),
    ...agentRoutes(operations.agents, services.agents),
    ...waitlistRoutes(operations.waitlists),
    ...checkRoutes(operations.checks, services.checks),
    ...monitorRoutes(operations.monitors),
    ...storeRoutes(operations.store),
    paymentWebhookRoute(services.payments, services.webhooks),
    ...mcpRoutes({
      catalogue,
      agentCatalogue,
      agentResource: resourceNamed(services, "mcp-agent"),
      site,
      monitor: services.monitor,
      operations: operationDeps,
      log,
    }),
  ];
}

/** The fast path's routes (api/fast-path/README.md), answered on node:http ahead of this app. */
export function hotRoutesFor(services: AppServices, site: SiteFiles | null, log: Logger): Map<string, HotRoute> {
  const standing = agentStandingHotRoute({
    monitor: services.monitor,
    tokenOwners: services.tokenOwners,
    standingEpoch: services.standingEpoch,
    standingJson: (owner) => services.agents.standingJson(owner),
    service: services.content.service,
    log,
  });
  return new Map([...(site ? staticFileRoutes(site, log) : []), standing]);
}

function resourceNamed(services: AppServices, name: ResourceName): ProtectedResource {
  const resource = services.oauth.resources.find((candidate) => candidate.name === name);
  if (!resource) throw new Error(`No protected resource ${name}`);
  return resource;
}

/** The authorization server's routes: its endpoints and the consent page (api/oauth/). */
function oauthRouteDeps({ config, services, log }: AppDeps): OAuthRouteDeps {
  const common = { siteUrl: config.siteUrl, trustProxy: config.trustProxy, log };
  return {
    ...common,
    provider: services.oauth.provider,
    limiter: services.limiter,
    consent: {
      ...common,
      provider: services.oauth.provider,
      service: services.oauth.consent,
      secrets: services.secrets,
      bodyLimitBytes: config.bodyLimitBytes,
      limiter: services.limiter,
      lifetimes: {
        accessTokenMinutes: OAUTH_LIFETIMES.accessToken / 60,
        refreshDays: OAUTH_LIFETIMES.refreshToken / 86_400,
      },
      cookieMaxAgeSeconds: OAUTH_LIFETIMES.interaction,
    },
  };
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
  if (cause instanceof ClientClosedRequest) {
    // Nobody is left to read an answer, and nothing went wrong here: a 4xx in the request line
    // (nginx's 499), so the client's hang-up never counts as a server error.
    deps.log.info({ req_id: requestIdOf(event), path: event.url.pathname }, "client closed the request mid-body");
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  }
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
