import { createHash } from "node:crypto";
import { type Tool as SdkTool, ToolSchema as SdkToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isOperationAvailable, type ServiceState } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import type { ToolDescription } from "../../src/schemas/mcp.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import type { Tool } from "../platform/mcp-tool.ts";

/** The active tools described once: for `/api/v1/tools`, and (parsed by the SDK's own schema) for `tools/list`. */
export interface ToolListing {
  revision: string;
  tools: readonly Tool[];
  descriptions: readonly ToolDescription[];
  sdkTools: readonly SdkTool[];
}

/**
 * A tool as MCP describes it. Draft-07 JSON Schema with its `$schema`, as the SDK's own `McpServer` emits
 * tool schemas: the SDK client validates results with a draft-07 validator by default.
 */
function describe(tool: Tool): ToolDescription {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, { target: "draft-7", io: "input", unrepresentable: "throw" }),
    outputSchema: z.toJSONSchema(tool.output, { target: "draft-7", io: "output", unrepresentable: "throw" }),
    annotations: tool.annotations,
    _meta: { "dev.agentready/operation": tool.operation, "dev.agentready/authentication": tool.authentication },
  };
}

/**
 * The one tool registry: the MCP server serves it and `/api/v1/tools` lists it. A tool is active while
 * the HTTP operation it mirrors is available, so switching a capability off removes its tool too, and the
 * revision (a hash of the active descriptions) changes with the set.
 */
export class ToolCatalogue {
  readonly tools: readonly Tool[];
  readonly #listings = new Map<string, ToolListing>();

  /** The tools each feature exports (compose.ts gathers them). */
  constructor(tools: readonly Tool[]) {
    this.tools = tools;
    const names = this.tools.map((tool) => tool.name);
    if (new Set(names).size !== names.length) throw new Error("Two MCP tools share a name");
  }

  active(state: ServiceState, service: ServiceSettings): ToolListing {
    const tools = this.tools.filter((tool) => isOperationAvailable(findOperation(tool.operation), state, service));
    const key = tools.map((tool) => tool.name).join(",");
    let listing = this.#listings.get(key);
    if (!listing) {
      const descriptions = tools.map(describe);
      const revision = createHash("sha256").update(JSON.stringify(descriptions)).digest("hex").slice(0, 12);
      listing = {
        revision,
        tools,
        descriptions,
        sdkTools: descriptions.map((description) => SdkToolSchema.parse(description)),
      };
      this.#listings.set(key, listing);
    }
    return listing;
  }
}
