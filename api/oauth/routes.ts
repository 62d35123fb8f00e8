import { performance } from "node:perf_hooks";
import { fromNodeHandler, type H3, type H3Event } from "h3";
import type Provider from "oidc-provider";
import { OAUTH_PATHS } from "../../src/lib/discovery/oauth.ts";
import { API_SECURITY_HEADERS, CORS_HEADERS } from "../../src/lib/manifest.ts";
import { clientAddress } from "../platform/http/client.ts";
import { requestIdOf } from "../platform/http/request-id.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import type { RateLimiter } from "../platform/limits/rate-limiter.ts";
import type { Logger } from "../platform/log.ts";
import { ApiProblem } from "../platform/problem.ts";
import { asPublicRequest, type ConsentRouteDeps, registerConsentRoutes } from "./consent/consent-routes.ts";
import { OAUTH_JWKS_PATH } from "./provider.ts";

export interface OAuthRouteDeps {
  provider: Provider;
  siteUrl: string;
  trustProxy: boolean;
  limiter: RateLimiter;
  log: Logger;
  consent: ConsentRouteDeps;
}

/**
 * The authorization server's endpoints under `/oauth/`: oidc-provider's Koa app through its Node
 * handler. h3 never reads the request body first (the library parses it itself), so the library's
 * own validation, errors (JSON for clients, the error page for a browser) and responses are what a
 * client gets. Posts count against the `oauth` limit of the client's address.
 */
export function registerOAuthRoutes(app: H3, deps: OAuthRouteDeps): void {
  registerConsentRoutes(app, deps.consent);
  const handler = fromNodeHandler(deps.provider.callback());
  const serve = async (event: H3Event) => {
    const node = event.runtime?.node;
    if (!node?.res)
      throw new ApiProblem("service-unavailable", "The authorization server is served by the Node server only.");
    const address = clientAddress(event, deps.trustProxy);
    if (event.req.method === "POST") await enforceRateLimit(deps.limiter, "oauth", address);
    const path = event.url.pathname;
    asPublicRequest(node.req, deps.siteUrl);
    // Browser-based clients (MCP Inspector, web agents) call the token, registration and revocation
    // endpoints from another origin; no cookie is read there, so any origin may. The authorization
    // endpoint is a page a person visits: no CORS. Preflights are the app's.
    const forPeople = path === OAUTH_PATHS.authorize || path.startsWith(`${OAUTH_PATHS.authorize}/`);
    const headers: Record<string, string> = forPeople ? {} : { ...API_SECURITY_HEADERS, ...CORS_HEADERS };
    for (const [name, value] of Object.entries(headers)) node.res.setHeader(name, value);
    node.res.setHeader("X-Request-Id", requestIdOf(event));
    const started = performance.now();
    node.res.once("finish", () => {
      deps.log.info(
        {
          req_id: requestIdOf(event),
          method: event.req.method,
          path,
          status: node.res?.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        "oauth",
      );
    });
    return handler(event);
  };
  // Only what is switched on; anything else under /oauth/ is the app's 404 problem, not the library's.
  app.get(OAUTH_PATHS.authorize, serve);
  app.post(OAUTH_PATHS.authorize, serve);
  app.get(`${OAUTH_PATHS.authorize}/:uid`, serve);
  app.post(OAUTH_PATHS.token, serve);
  app.post(OAUTH_PATHS.register, serve);
  app.post(OAUTH_PATHS.revoke, serve);
  app.get(OAUTH_JWKS_PATH, serve);
}
