import { getRouterParams, type H3, type H3Event } from "h3";
import { findOperation, type Operation, type OperationId } from "../../../src/lib/registry.ts";
import type { BearerResource } from "../auth/bearer.ts";
import { readJson } from "../body.ts";
import { clientAddress } from "../http/client.ts";
import { limitsOf, rememberLimits } from "../http/request-limits.ts";
import { jsonResponse } from "../http/responses.ts";
import { enforceRateLimit } from "../limits/enforce.ts";
import { methodNotAllowed, methodsForPath, shadowedLiteralPaths } from "../operation-match.ts";
import type { OperationCall, OperationDefinition } from "./definition.ts";
import { type OperationDeps, performOperation } from "./prepare-call.ts";

/** How one operation's result becomes a response when JSON of it with the registry's 2xx is not enough. */
export interface HttpRouteOptions<Id extends OperationId, Found, Result> {
  /** The success response, given the headers it must carry (RateLimit, Location). */
  respond?: (
    event: H3Event,
    call: OperationCall<Id, Found>,
    result: Result,
    headers: Record<string, string>,
  ) => Response | Promise<Response>;
  /** Where the created resource can be read back, for a 201 (RFC 9110 §15.3.2). */
  location?: (result: Result, call: OperationCall<Id, Found>) => string;
  /** The protected resource this route is, when not the HTTP API (the agent MCP endpoint). */
  resource?: BearerResource;
}

/** One served operation, its types closed over: the app only needs its id and a way to serve it. */
export interface HttpRoute {
  id: OperationId;
  serve(event: H3Event, deps: HttpRouteDeps): Promise<Response>;
}

export interface HttpRouteDeps extends OperationDeps {
  bodyLimitBytes: number;
  trustProxy: boolean;
  /** The HTTP API as a protected resource: OAuth tokens issued for it are accepted, and its 401s say where its metadata is. */
  resource?: BearerResource;
}

/** `/api/v1/checks/{id}` → `/api/v1/checks/:id`; a `{path}` of several segments → a named wildcard. */
export function routerPath(operation: Operation): string {
  return operation.path.replace(/\{path\}/g, "**:path").replace(/\{([a-z_]+)\}/g, ":$1");
}

function successStatus(operation: Operation): number {
  return operation.statuses.find((status) => status >= 200 && status < 300) ?? 200;
}

/** The HTTP route of an operation: every step before the work comes from the registry (see performOperation). */
export function httpRoute<Id extends OperationId, Found, Result>(
  definition: OperationDefinition<Id, Found, Result>,
  options: HttpRouteOptions<Id, Found, Result> = {},
): HttpRoute {
  const status = successStatus(findOperation(definition.id));
  return {
    id: definition.id,
    async serve(event, deps) {
      const { call, result } = await performOperation(
        definition,
        {
          address: clientAddress(event, deps.trustProxy),
          headers: event.req.headers,
          params: getRouterParams(event),
          readBody: (schema, optional) => readJson(event, schema, { limitBytes: deps.bodyLimitBytes, optional }),
          onLimits: (headers) => rememberLimits(event, headers),
          ...((options.resource ?? deps.resource) ? { resource: options.resource ?? deps.resource } : {}),
        },
        deps,
      );
      const headers = { ...limitsOf(event) };
      if (options.location) headers.Location = options.location(result, call);
      if (options.respond) return options.respond(event, call, result, headers);
      return jsonResponse(event, result, { status, headers });
    },
  };
}

/**
 * An operation only HTTP can carry (a raw signed body, a protocol transport): the same registry steps,
 * then `handle` gets the request itself.
 */
export function httpOnlyRoute<Id extends OperationId>(
  id: Id,
  handle: (event: H3Event, call: OperationCall<Id>, headers: Record<string, string>) => Promise<Response>,
  options: Pick<HttpRouteOptions<Id, undefined, undefined>, "resource"> = {},
): HttpRoute {
  const definition: OperationDefinition<Id, undefined, undefined> = { id, run: async () => undefined };
  return httpRoute(definition, {
    ...options,
    respond: (event, call, _result, headers) => handle(event, call, headers),
  });
}

/**
 * Serves each route at its registry method and path; GET answers HEAD too (RFC 9110 §9.3.2). A
 * literal path that another method's template would capture answers that method with 405, as an
 * unknown method on any known path does (and counts as a miss, as those do).
 */
export function registerOperationRoutes(app: H3, routes: readonly HttpRoute[], deps: HttpRouteDeps): void {
  for (const route of routes) {
    const operation = findOperation(route.id);
    const path = routerPath(operation);
    const handler = (event: H3Event) => route.serve(event, deps);
    app.on(operation.method, path, handler);
    if (operation.method === "GET") app.on("HEAD", path, handler);
  }
  for (const { method, path } of shadowedLiteralPaths()) {
    const refuse = async (event: H3Event) => {
      rememberLimits(event, await enforceRateLimit(deps.limiter, "api-misses", clientAddress(event, deps.trustProxy)));
      throw methodNotAllowed(path, event.req.method, methodsForPath(path));
    };
    app.on(method, path, refuse);
    if (method === "GET") app.on("HEAD", path, refuse);
  }
}
