import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { H3, H3Event } from "h3";
import { MCP_PATH } from "../../src/lib/discovery/mcp-card.ts";
import type { ProblemCode } from "../../src/lib/problems.ts";
import { absolute } from "../../src/lib/urls.ts";
import { McpRequestSchema } from "../../src/schemas/mcp.ts";
import { requireAvailable } from "../platform/availability.ts";
import { readJson } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { onGet } from "../platform/http/get-route.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { RouteDeps } from "../platform/route-deps.ts";
import { ToolCatalogue } from "./catalogue.ts";
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
  return new ApiProblem(code, detail || `The MCP transport refused the request (${response.status}).`, {
    headers: limits,
  });
}

function ifNoneMatch(event: H3Event, etag: string): boolean {
  const inm = event.req.headers.get("if-none-match");
  return inm?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag) ?? false;
}

/**
 * `POST /mcp`: the MCP server over stateless Streamable HTTP (a server and a transport per request,
 * JSON responses), and `GET /api/v1/tools`: the same catalogue as JSON. Both follow the `mcp` switch and
 * `publish.mcp_server`, and count against the `mcp` rate limit.
 */
export function registerMcpRoutes(app: H3, { config, services, log }: RouteDeps): void {
  const catalogue = new ToolCatalogue(services);
  const service = services.content.service;
  const site = {
    content: services.content,
    siteUrl: config.siteUrl,
    docsUrl: config.docsUrl,
    builtAt: services.now().toISOString(),
  };
  const endpoint = absolute(config.siteUrl, MCP_PATH);

  const listTools = async (event: H3Event) => {
    await requireAvailable("listTools", services.monitor, service);
    const limits = await enforceRateLimit(services.limiter, "mcp", clientAddress(event, config.trustProxy));
    const listing = catalogue.active(await services.monitor.current(), service);
    // The body is a function of the revision, so the revision is a strong validator.
    const etag = `"${listing.revision}"`;
    const headers = { ...limits, ETag: etag, "Cache-Control": "no-cache" };
    if (ifNoneMatch(event, etag))
      return completeResponse(event, null, { status: 304, type: "application/json", headers });
    return jsonResponse(event, { revision: listing.revision, endpoint, data: listing.descriptions }, { headers });
  };
  onGet(app, "/api/v1/tools", listTools);

  app.post(MCP_PATH, async (event) => {
    await requireAvailable("callMcp", services.monitor, service);
    const address = clientAddress(event, config.trustProxy);
    const limits = await enforceRateLimit(services.limiter, "mcp", address);
    const message = await readJson(event, McpRequestSchema, { limitBytes: config.bodyLimitBytes });
    const state = await services.monitor.current();
    const context = {
      services,
      site,
      state,
      clientAddress: address,
      authorization: event.req.headers.get("authorization"),
      agent: null,
    };
    const server = createMcpServer(catalogue.active(state, service), context, log);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      const response = await transport.handleRequest(event.req, { parsedBody: message });
      if (response.status >= 400) throw await transportProblem(response, limits);
      const body = response.status === 202 ? null : await response.text();
      const type = response.headers.get("content-type") ?? "application/json";
      return completeResponse(event, body, { status: response.status, type, headers: limits });
    } finally {
      await transport.close();
      await server.close();
    }
  });
}
