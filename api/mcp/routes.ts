import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { H3Event } from "h3";
import { MCP_ACCEPT, MCP_PATH } from "../../src/lib/discovery/mcp-card.ts";
import { MCP_AGENT_PATH, type ProtectedResource } from "../../src/lib/discovery/oauth.ts";
import type { ServiceState } from "../../src/lib/discovery/state.ts";
import type { BuildContext } from "../../src/lib/outputs/artifact.ts";
import type { ProblemCode } from "../../src/lib/problems.ts";
import { absolute } from "../../src/lib/urls.ts";
import { authenticateBearer, TOKEN_SOURCE_HTTP } from "../platform/auth/bearer.ts";
import { clientAddress } from "../platform/http/client.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import type { Logger } from "../platform/log.ts";
import { type HttpRoute, httpOnlyRoute } from "../platform/operations/http-routes.ts";
import type { OperationDeps } from "../platform/operations/prepare-call.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import type { ToolCatalogue } from "./catalogue.ts";
import { FLOW_PROMPTS } from "./flows.ts";
import { PromptBook } from "./prompts.ts";
import { ResourceShelf } from "./resources.ts";
import { createMcpServer } from "./server.ts";

/** The transport's own refusals (JSON-RPC error bodies) leave as problems, like every other 4xx of the API. */
const TRANSPORT_PROBLEMS: Record<number, ProblemCode> = {
  400: "bad-request",
  404: "not-found",
  405: "method-not-allowed",
  406: "not-acceptable",
  413: "payload-too-large",
  415: "unsupported-media-type",
};

/** The 406 detail: what every POST /mcp must accept. */
export const NOT_ACCEPTABLE_DETAIL = `A POST to ${MCP_PATH} must send Accept: ${MCP_ACCEPT} (MCP Streamable HTTP): both types, listed explicitly.`;

async function transportProblem(response: Response, limits: Record<string, string>): Promise<ApiProblem> {
  const text = await response.text();
  let detail = text;
  try {
    const parsed: unknown = JSON.parse(text);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "error" in parsed &&
      typeof parsed.error === "object" &&
      parsed.error !== null &&
      "message" in parsed.error
    ) {
      detail = String(parsed.error.message);
    }
  } catch {
    // Not JSON: the text is the detail.
  }
  const code = TRANSPORT_PROBLEMS[response.status] ?? (response.status >= 500 ? "internal-error" : "bad-request");
  // The one refusal a client can fix without reading the SDK: say exactly what to send (OpenAPI says the same).
  if (response.status === 406) detail = NOT_ACCEPTABLE_DETAIL;
  return new ApiProblem(code, detail || `The MCP transport refused the request (${response.status}).`, {
    headers: limits,
  });
}

export interface McpRouteDeps {
  catalogue: ToolCatalogue;
  /** The tools that act for a registration (bearer), served at the agent endpoint. */
  agentCatalogue: ToolCatalogue;
  /** The agent endpoint as an OAuth protected resource (src/lib/discovery/oauth.ts). */
  agentResource: ProtectedResource;
  /** Content and public URLs, as the build had them. */
  site: BuildContext;
  monitor: ServiceStateMonitor;
  operations: OperationDeps;
  log: Logger;
}

/**
 * `POST /mcp`: the MCP server over stateless Streamable HTTP (a server and a transport per request,
 * JSON responses), and `GET /api/v1/tools`: the same catalogue as JSON. Switch, publication, rate limit
 * and body schema come from the registry like every other operation's.
 */
export function mcpRoutes(deps: McpRouteDeps): HttpRoute[] {
  const { catalogue, site, monitor } = deps;
  const service = site.content.service;
  const endpoint = absolute(site.siteUrl, MCP_PATH);
  const shelves = {
    resources: new ResourceShelf(site),
    prompts: new PromptBook(FLOW_PROMPTS, site.siteUrl, deps.operations.bodySchemas),
  };

  const listTools = httpOnlyRoute("listTools", async (event, _call, limits) => {
    const listing = catalogue.active(await monitor.current(), service);
    // The body is a function of the revision, so the revision is a strong validator.
    const etag = `"${listing.revision}"`;
    const headers = { ...limits, ETag: etag, "Cache-Control": "no-cache" };
    return jsonResponse(event, { revision: listing.revision, endpoint, data: listing.descriptions }, { headers });
  });

  /** One stateless exchange: a server and a transport for this request, JSON answers, transport refusals as problems. */
  async function exchange(
    event: H3Event,
    body: unknown,
    limits: Record<string, string>,
    server: Server,
  ): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(event.req, { parsedBody: body });
      if (response.status >= 400) throw await transportProblem(response, limits);
      const text = response.status === 202 ? null : await response.text();
      const type = response.headers.get("content-type") ?? "application/json";
      return completeResponse(event, text, { status: response.status, type, headers: limits });
    } finally {
      await transport.close();
      await server.close();
    }
  }

  /** What every tool call of either endpoint knows of its request. */
  const callContext = (event: H3Event, call: { address: string }, state: ServiceState) => ({
    site,
    state,
    clientAddress: call.address,
    headers: event.req.headers,
    operations: deps.operations,
  });

  const callMcp = httpOnlyRoute("callMcp", async (event, call, limits) => {
    const state = await monitor.current();
    const listing = catalogue.active(state, service);
    // Over MCP a token comes from a tool, so a 401 names it (the HTTP route is the fallback it also names).
    const register = listing.tools.find((tool) => tool.operation === "registerAgent");
    const context = {
      ...callContext(event, call, state),
      ...(register ? { tokenSource: `with the ${register.name} tool (or ${TOKEN_SOURCE_HTTP})` } : {}),
    };
    return exchange(event, call.body, limits, createMcpServer(listing, shelves, context, deps.log));
  });

  // The same tools that act for a registration, behind a sign-in: every request carries a token issued
  // for this endpoint (or an agent token), and one without gets a 401 naming the metadata to sign in with.
  const agentShelves = {
    resources: shelves.resources,
    prompts: new PromptBook([], site.siteUrl, deps.operations.bodySchemas),
  };
  const callAgentMcp = httpOnlyRoute(
    "callAgentMcp",
    async (event, call, limits) => {
      const state = await monitor.current();
      const listing = deps.agentCatalogue.active(state, service);
      const context = {
        ...callContext(event, call, state),
        tokenSource: `by signing in with OAuth (${deps.agentResource.metadataUrl})`,
        resource: deps.agentResource,
      };
      return exchange(event, call.body, limits, createMcpServer(listing, agentShelves, context, deps.log));
    },
    { resource: deps.agentResource },
  );

  return [listTools, callMcp, callAgentMcp];
}

/**
 * `GET /mcp/agent`: the stateless server opens no event stream (405, as `GET /mcp` is). A request with no
 * token at all is answered with the 401 that starts a sign-in first, so a client probing with GET learns
 * where to sign in. One with a token, even an expired one, gets the 405: an SDK client opens this stream
 * beside its POSTs, and a 401 here would send it refreshing twice at once, which the refresh-token reuse
 * detection takes for a stolen token and revokes the grant.
 */
export function agentEndpointGet(deps: {
  auth: OperationDeps["auth"];
  resource: ProtectedResource;
  trustProxy: boolean;
}): (event: H3Event) => Promise<never> {
  return async (event) => {
    const header = event.req.headers.get("authorization");
    if (!header) {
      const address = clientAddress(event, deps.trustProxy);
      await authenticateBearer(header, deps.auth, address, null, TOKEN_SOURCE_HTTP, deps.resource);
    }
    throw new ApiProblem(
      "method-not-allowed",
      `${MCP_AGENT_PATH} answers POST only: the server is stateless and opens no event stream.`,
      { headers: { Allow: "POST" } },
    );
  };
}
