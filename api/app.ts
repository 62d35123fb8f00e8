import { randomUUID } from "node:crypto";
import { H3, HTTPError, type H3Event } from "h3";
import { CORS_HEADERS, SECURITY_HEADERS } from "../src/lib/manifest.ts";
import type { Config } from "./config.ts";
import { isComplete } from "./http/complete-response.ts";
import { ApiProblem, problemResponse } from "./http/problem.ts";
import { redactPath, type Logger } from "./log.ts";
import { registerHealthRoutes } from "./routes/health.ts";
import { registerStaticRoutes, type StaticDeps } from "./routes/static.ts";
import type { SiteFiles } from "./static/site-files.ts";

export interface AppDeps {
  config: Pick<Config, "siteUrl">;
  log: Logger;
  site: SiteFiles | null;
  live?: StaticDeps["live"];
}

const REQUEST_ID = Symbol("request-id");
const STARTED = Symbol("started");
interface Timed {
  [REQUEST_ID]?: string;
  [STARTED]?: number;
}

/** The request's id: the client's `X-Request-Id` when it is sane, else a fresh one (made on first use). */
export function requestIdOf(event: H3Event): string {
  const context = event.context as Timed;
  if (!context[REQUEST_ID]) {
    const supplied = event.req.headers.get("x-request-id");
    context[REQUEST_ID] = supplied && /^[A-Za-z0-9._-]{8,64}$/.test(supplied) ? supplied : randomUUID();
  }
  return context[REQUEST_ID];
}

/** Builds the app from its dependencies; no I/O here (the server opens files and databases). */
export function createApp(deps: AppDeps): H3 {
  const app = new H3({
    silent: true,
    onRequest(event) {
      (event.context as Timed)[STARTED] = performance.now();
    },
    onResponse(response, event) {
      // Static files are complete and are the CDN's business: logged at debug level only.
      if (isComplete(response)) {
        if (deps.log.isLevelEnabled("debug")) logRequest(deps.log, "debug", event, response.status);
        return;
      }
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.headers.set(name, value);
      response.headers.set("X-Request-Id", requestIdOf(event));
      if (deps.log.isLevelEnabled("info")) logRequest(deps.log, "info", event, response.status);
    },
    onError(error, event) {
      return errorToResponse(error, event, deps);
    },
  });
  app.options("/**", () => new Response(null, { status: 204, headers: preflightHeaders() }));
  registerHealthRoutes(app);
  // Static routes last: their catch-all answers everything no other route took.
  registerStaticRoutes(app, { site: deps.site, live: deps.live ?? new Map() });
  return app;
}

function logRequest(log: Logger, level: "info" | "debug", event: H3Event, status: number): void {
  const started = (event.context as Timed)[STARTED] ?? performance.now();
  log[level](
    { req_id: requestIdOf(event), method: event.req.method, path: redactPath(event.url.pathname), status, ms: Math.round((performance.now() - started) * 10) / 10 },
    "request",
  );
}

function preflightHeaders(): Headers {
  return new Headers({
    ...CORS_HEADERS,
    "Access-Control-Allow-Methods": "GET, HEAD, POST, OPTIONS",
    "Access-Control-Allow-Headers": "Authorization, Content-Type, If-None-Match, Idempotency-Key",
    "Access-Control-Max-Age": "86400",
  });
}

/** Every failure leaves as a problem; anything unexpected is a 500 that says nothing of why. */
function errorToResponse(error: HTTPError, event: H3Event, deps: AppDeps): Response {
  const instance = event.url.pathname;
  const requestId = requestIdOf(event);
  const cause: unknown = error.cause;
  const problem = cause instanceof ApiProblem ? cause : error instanceof ApiProblem ? error : fromHttpError(error, deps, requestId);
  const response = problemResponse(problem, deps.config.siteUrl, instance, requestId);
  response.headers.set("Access-Control-Allow-Origin", "*");
  return response;
}

function fromHttpError(error: HTTPError, deps: AppDeps, requestId: string | undefined): ApiProblem {
  if (error.unhandled || error.status >= 500) {
    const original = error.cause instanceof Error ? error.cause : error;
    deps.log.error({ req_id: requestId, err: { message: original.message, stack: original.stack } }, "unhandled error");
    return new ApiProblem("internal-error", "The request could not be completed. It has been logged.");
  }
  if (error.status === 404) return new ApiProblem("not-found", "Nothing is published at this address.");
  if (error.status === 405) return new ApiProblem("method-not-allowed", "This address does not accept that method.");
  if (error.status === 413) return new ApiProblem("payload-too-large", "The request body is too large.");
  if (error.status === 415) return new ApiProblem("unsupported-media-type", "Send the body as application/json.");
  return new ApiProblem("bad-request", "The request could not be understood.");
}
