import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { MCP_CAPABILITIES, mcpServerInfo } from "../../src/lib/discovery/mcp-card.ts";
import { isUnavailableError } from "../db/database.ts";
import { requireAvailable } from "../platform/availability.ts";
import type { Logger } from "../platform/log.ts";
import type { ToolContext } from "../platform/mcp-tool.ts";
import { ApiProblem, problemBody } from "../platform/problem.ts";
import type { ToolListing } from "./catalogue.ts";
import type { PromptBook } from "./prompts.ts";
import type { ResourceShelf } from "./resources.ts";

/** What the server offers besides the tools: the published Markdown and the flow prompts. */
export interface McpShelves {
  resources: ResourceShelf;
  prompts: PromptBook;
}

export const REVISION_META = "dev.agentready/revision";

/** A tool error carries the problem the HTTP API would answer (same `code`, same pointers), as JSON text. */
function problemResult(problem: ApiProblem, siteUrl: string, tool: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify(problemBody(problem, siteUrl, `/mcp#${tool}`)) }],
  };
}

/**
 * One MCP server for one HTTP request (stateless Streamable HTTP). The SDK's low-level `Server` (its
 * "advanced use case"): `McpServer` builds its own `tools/list` from zod at request time and has no
 * `_meta` on it, whereas here `tools/list` answers exactly the catalogue's descriptions (what
 * `/api/v1/tools` lists) with the revision in `_meta`, and a tool error carries a problem document.
 */
export function createMcpServer(listing: ToolListing, shelves: McpShelves, context: ToolContext, log: Logger): Server {
  const { service } = context.site.content;
  const server = new Server(
    { ...mcpServerInfo(service), websiteUrl: context.site.docsUrl },
    {
      capabilities: MCP_CAPABILITIES,
      instructions: `${service.name}: ${service.tagline} Tool catalogue revision ${listing.revision}; GET /api/v1/tools lists the same tools. Tools that act for an agent registration need Authorization: Bearer <token> on the request. The docs, policies and agent skills are resources (their https Markdown URLs), also as URI templates by path or slug (resources/templates/list); prompts walk through checks, purchases and the waiting lists.`,
    },
  );
  shelves.resources.serveOn(server);
  shelves.prompts.serveOn(server, listing, context.state, service);
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...listing.sdkTools],
    _meta: { [REVISION_META]: listing.revision },
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name;
    const tool = listing.tools.find((candidate) => candidate.name === name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${name}; tools/list shows the active ones (revision ${listing.revision}).`,
      );
    try {
      // The state may have changed since the list was made: the HTTP API's own guard decides.
      await requireAvailable(tool.operation, context.operations.monitor, service);
      const output = await tool.invoke(request.params.arguments ?? {}, context);
      return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
    } catch (error) {
      if (error instanceof ApiProblem) return problemResult(error, context.site.siteUrl, name);
      if (isUnavailableError(error)) {
        context.operations.monitor.invalidate();
        return problemResult(
          new ApiProblem("service-unavailable", "The database is unavailable; service_status shows the details."),
          context.site.siteUrl,
          name,
        );
      }
      log.error(
        { tool: name, err: error instanceof Error ? { message: error.message, stack: error.stack } : String(error) },
        "MCP tool failed",
      );
      return problemResult(
        new ApiProblem("internal-error", "The tool could not complete. It has been logged."),
        context.site.siteUrl,
        name,
      );
    }
  });
  return server;
}
