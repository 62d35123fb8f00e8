import { getRouterParam, type H3, type H3Event } from "h3";
import type Provider from "oidc-provider";
import type { Interaction } from "oidc-provider";
import type { NodeServerRequest, NodeServerResponse } from "srvx";
import { OAUTH_PATHS } from "../../../src/lib/discovery/oauth.ts";
import { readLimited } from "../../platform/body.ts";
import { clientAddress } from "../../platform/http/client.ts";
import { markComplete } from "../../platform/http/complete-response.ts";
import { isCrossSitePost } from "../../platform/http/cross-site.ts";
import { requestIdOf } from "../../platform/http/request-id.ts";
import { enforceRateLimit } from "../../platform/limits/enforce.ts";
import type { RateLimiter } from "../../platform/limits/rate-limiter.ts";
import type { Logger } from "../../platform/log.ts";
import type { SecretRing } from "../../platform/secret-ring.ts";
import { consentPage, type Lifetimes } from "./consent-page.ts";
import type { ConsentRequest, ConsentService } from "./consent-service.ts";
import { csrfCookie, csrfHolds, csrfNonce, csrfToken } from "./csrf.ts";
import { errorPage } from "./error-page.ts";
import { pageHeaders } from "./page-shell.ts";

type NodeExchange = { req: NodeServerRequest; res: NodeServerResponse };

/**
 * The library writes its URLs (the resume URL a consent returns to, its endpoints) from the request's
 * host and scheme, and marks cookies Secure by the scheme (it trusts X-Forwarded-*). They are set here
 * from the public URL, whatever a client or the socket says, so no request can steer them elsewhere.
 */
export function asPublicRequest(req: NodeServerRequest, siteUrl: string): void {
  const site = new URL(siteUrl);
  req.headers["x-forwarded-proto"] = site.protocol.replace(":", "");
  req.headers["x-forwarded-host"] = site.host;
}

export interface ConsentRouteDeps {
  provider: Provider;
  service: ConsentService;
  secrets: SecretRing;
  siteUrl: string;
  trustProxy: boolean;
  bodyLimitBytes: number;
  lifetimes: Lifetimes;
  limiter: RateLimiter;
  cookieMaxAgeSeconds: number;
  log: Logger;
}

function respond(
  event: H3Event,
  status: number,
  body: string,
  headers: Record<string, string>,
  cookie?: string,
): Response {
  const response = new Response(body, { status, headers: { ...headers, "X-Request-Id": requestIdOf(event) } });
  if (cookie) response.headers.append("Set-Cookie", cookie);
  // Its own policy (page-shell.ts) stands: the app's document headers are not laid over it.
  return markComplete(response);
}

function stopped(event: H3Event, status: number, code: string, description: string): Response {
  return respond(event, status, errorPage(code, description), pageHeaders());
}

/** Where the 303 after a decision ends up, so the page's `form-action` lets the browser follow it (CSP3 checks redirects). */
function formTargets(request: ConsentRequest): string[] {
  const target = URL.parse(request.redirectUri);
  if (!target) return [];
  return target.origin !== "null" ? [target.origin] : [target.protocol];
}

/**
 * `GET` and `POST /oauth/consent/{uid}`: the page an authorization request stops at until a person
 * answers. Only a browser that holds the library's interaction cookie gets here (`interactionDetails`
 * refuses the rest), the form carries a CSRF token bound to that interaction and to a cookie of its
 * own, and a post from another site is refused before anything is read. Every way out is a 303 to the
 * library's resume URL, which redirects to the client's already-validated redirect URI; anything that
 * cannot go on ends on an error page, never on a redirect.
 */
export function registerConsentRoutes(app: H3, deps: ConsentRouteDeps): void {
  const secure = new URL(deps.siteUrl).protocol === "https:";
  const path = `${OAUTH_PATHS.consent}/:uid`;

  async function interaction(event: H3Event): Promise<{ node: NodeExchange; details: Interaction } | Response> {
    const req = event.runtime?.node?.req;
    const res = event.runtime?.node?.res;
    if (!req || !res)
      return stopped(event, 503, "temporarily_unavailable", "This page is served by the Node server only.");
    try {
      const details = await deps.provider.interactionDetails(req, res);
      if (details.uid !== getRouterParam(event, "uid"))
        return stopped(event, 400, "session_not_found", "This sign-in belongs to another request.");
      return { node: { req, res }, details };
    } catch {
      return stopped(event, 400, "session_not_found", "This sign-in has expired or was started in another browser.");
    }
  }

  function render(
    event: H3Event,
    request: ConsentRequest,
    status: number,
    extra: Partial<Parameters<typeof consentPage>[0]> = {},
  ) {
    const { nonce, fresh } = csrfNonce(event.req.headers.get("cookie"), secure);
    const body = consentPage({
      request,
      csrf: csrfToken(deps.secrets, request.uid, nonce),
      lifetimes: deps.lifetimes,
      ...extra,
    });
    const cookie = fresh ? csrfCookie(secure, nonce, deps.cookieMaxAgeSeconds) : undefined;
    return respond(event, status, body, pageHeaders(formTargets(request)), cookie);
  }

  app.get(path, async (event) => {
    const found = await interaction(event);
    if (found instanceof Response) return found;
    return render(event, await deps.service.read(found.details), 200);
  });

  app.post(path, async (event) => {
    if (isCrossSitePost(event.req.method, event.req.headers, deps.siteUrl))
      return stopped(event, 403, "csrf", "This form only accepts posts from this site.");
    await enforceRateLimit(deps.limiter, "oauth", clientAddress(event, deps.trustProxy));
    const form = new URLSearchParams(Buffer.from(await readLimited(event, deps.bodyLimitBytes)).toString("utf8"));
    const found = await interaction(event);
    if (found instanceof Response) return found;
    const { details, node } = found;
    if (!csrfHolds(deps.secrets, details.uid, event.req.headers.get("cookie"), secure, form.get("csrf") ?? ""))
      return stopped(event, 403, "csrf", "The form's security token is missing or does not match this sign-in.");
    const request = await deps.service.read(details);
    const fields = Object.fromEntries([...form].filter(([name]) => name !== "agent_token" && name !== "csrf"));
    const decision = await deps.service.decide(
      details,
      request,
      {
        decision: form.get("decision") ?? "",
        who: form.get("who") ?? "",
        fields,
        token: form.get("agent_token") ?? "",
      },
      clientAddress(event, deps.trustProxy),
    );
    if (decision.kind === "retry")
      return render(event, request, decision.status, {
        values: fields,
        failure: { message: decision.message, errors: decision.errors },
      });
    const to = await deps.provider.interactionResult(node.req, node.res, decision.result, {
      mergeWithLastSubmission: false,
    });
    if (decision.endSession) await deps.service.endBrowserSession(details.uid, decision.endSession);
    deps.log.info(
      { req_id: requestIdOf(event), client_id: request.client.id, outcome: decision.result.error ?? "allowed" },
      "oauth consent answered",
    );
    return respond(event, 303, "", { Location: to, "Cache-Control": "no-store" });
  });
}
