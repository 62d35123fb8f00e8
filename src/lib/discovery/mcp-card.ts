import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { MCP_SERVER_CARD_SCHEMA, type McpServerCard } from "../../schemas/mcp.ts";
import type { ServiceSettings } from "../../schemas/service.ts";
import { absolute } from "../urls.ts";
import type { DiscoveryContext } from "./documents.ts";
import { MCP_AGENT_PATH } from "./oauth.ts";

/** Where the MCP server answers (Streamable HTTP). */
export const MCP_PATH = "/mcp";

/**
 * Where the card is served, byte-identical: `<streamable-http-url>/server-card` is canonical
 * (experimental-ext-server-card); the `.well-known` paths are where SEP-2127 and SEP-1649 scanners look.
 */
export const MCP_CARD_PATHS = [
  "/mcp/server-card",
  "/.well-known/mcp/server-card.json",
  "/.well-known/mcp.json",
] as const;

export const MCP_CARD_TYPE = "application/mcp-server-card+json";

/** The protocol revisions the SDK this server runs on negotiates, newest first. */
export const MCP_PROTOCOL_VERSIONS: readonly string[] = [
  LATEST_PROTOCOL_VERSION,
  ...SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version !== LATEST_PROTOCOL_VERSION),
];

/**
 * What the server offers at `initialize`, repeated in the card. Stateless: it cannot notify a client that
 * a list changed (the tools listing's revision says it) nor take resource subscriptions.
 */
export const MCP_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: false, listChanged: false },
  prompts: { listChanged: false },
};

/** What an MCP POST must accept (Streamable HTTP: the server may answer JSON or an event stream). */
export const MCP_ACCEPT = "application/json, text/event-stream";

/** What the server reports at `initialize`; the card repeats it so that scanners can compare (no drift). */
export function mcpServerInfo(service: ServiceSettings) {
  return { name: service.identifier, title: service.name, version: service.version };
}

/** One line of at most 100 characters: the service's own, or its tagline cut at a word. */
export function shortDescription(service: ServiceSettings): string {
  if (service.short_description) return service.short_description;
  if (service.tagline.length <= 100) return service.tagline;
  return `${service.tagline.slice(0, 99).replace(/\s+\S*$/, "")}…`;
}

/** The hybrid card: v1 fields plus the legacy `serverInfo`, `endpoint`, `protocolVersion`, `capabilities`. */
export function serverCardDocument(ctx: DiscoveryContext): McpServerCard {
  const { service } = ctx.content;
  const endpoint = absolute(ctx.siteUrl, MCP_PATH);
  return {
    $schema: MCP_SERVER_CARD_SCHEMA,
    name: service.identifier,
    version: service.version,
    description: shortDescription(service),
    title: service.name,
    websiteUrl: ctx.docsUrl,
    // The public endpoint first (what scanners and clients that take one remote use), then the one that acts
    // for a registration, behind an OAuth sign-in its 401 points to.
    remotes: [
      { type: "streamable-http", url: endpoint, supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS] },
      {
        type: "streamable-http",
        url: absolute(ctx.siteUrl, MCP_AGENT_PATH),
        supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      },
    ],
    serverInfo: mcpServerInfo(service),
    endpoint,
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: MCP_CAPABILITIES,
  };
}
