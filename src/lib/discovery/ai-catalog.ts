import { OPENAPI_TYPE } from "../openapi/media-types.ts";
import { findOperation } from "../registry.ts";
import { absolute } from "../urls.ts";
import type { DiscoveryContext } from "./documents.ts";
import { MCP_CARD_PATHS, MCP_CARD_TYPE, shortDescription } from "./mcp-card.ts";
import { isOperationAvailable, type ServiceState } from "./state.ts";

export const AI_CATALOG_TYPE = "application/ai-catalog+json";
/** ARD v0.91 consumers fetch `/.well-known/ard.json`; older ones `/.well-known/ai-catalog.json`. Same bytes at both. */
export const AI_CATALOG_PATHS = ["/.well-known/ai-catalog.json", "/.well-known/ard.json"] as const;

/** `urn:air:<publisher>:<namespace>:<name>`; the publisher is the site's host name (no port: `:` separates segments). */
function urn(ctx: DiscoveryContext, namespace: string, name: string): string {
  const host = new URL(ctx.siteUrl).hostname.replace(/[^a-zA-Z0-9.-]/g, "-");
  return `urn:air:${host}:${namespace}:${name}`;
}

/** True when the MCP server card is served now: published, and the server is published and switched on. */
export function isMcpCardAvailable(ctx: DiscoveryContext, state: ServiceState): boolean {
  const { service } = ctx.content;
  return (
    isOperationAvailable(findOperation("callMcp"), state, service) &&
    isOperationAvailable(findOperation("getMcpServerCard"), state, service)
  );
}

/**
 * The AI catalog (Agent-Card/ai-catalog 1.0; ARD v0.91): the MCP server card, the HTTP API's OpenAPI
 * description and the agent skills index, each with the queries it answers. Live: the MCP entry leaves
 * the moment the server is switched off.
 */
export function aiCatalogDocument(ctx: DiscoveryContext, state: ServiceState) {
  const { service } = ctx.content;
  const [localName = "service"] = service.identifier.split("/").slice(1);
  const site = (path: string) => absolute(ctx.siteUrl, path);
  const entries = [];
  if (isMcpCardAvailable(ctx, state)) {
    entries.push({
      identifier: urn(ctx, "mcp", localName),
      displayName: `${service.name} MCP server`,
      type: MCP_CARD_TYPE,
      url: site(MCP_CARD_PATHS[0]),
      version: service.version,
      description: shortDescription(service),
      tags: ["mcp", "agent-readiness", "documentation"],
      representativeQueries: [
        "Is example.com ready for AI agents?",
        "Run an agent-readiness check on my website",
        `What does ${service.name} charge for a full readiness report?`,
      ],
    });
  }
  entries.push({
    identifier: urn(ctx, "api", `${localName}-v1`),
    displayName: `${service.name} API`,
    type: OPENAPI_TYPE,
    url: site("/openapi.json"),
    version: service.version,
    description: "The HTTP API: docs, policies, readiness checks, the store, agent registration and waiting lists.",
    tags: ["openapi", "http-api"],
    representativeQueries: [
      "How do I register an agent and get a token?",
      "Which endpoints does this service offer?",
      "How do I buy and download a guide?",
    ],
  });
  if (service.publish.agent_skills) {
    entries.push({
      identifier: urn(ctx, "skills", "index"),
      displayName: `${service.name} agent skills`,
      type: "application/json",
      url: site("/.well-known/agent-skills/index.json"),
      version: service.version,
      description:
        "Step-by-step skills: join the agent waiting list, run and unlock a readiness check, buy and download.",
      tags: ["agent-skills"],
      representativeQueries: ["How does an agent join the waiting list?", "How do I unlock a readiness report?"],
    });
  }
  return {
    specVersion: "1.0" as const,
    host: {
      displayName: service.name,
      identifier: urn(ctx, "host", localName),
      documentationUrl: absolute(ctx.siteUrl, "/llms.txt"),
    },
    entries,
  };
}
