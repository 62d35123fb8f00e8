import type { AiCatalogEntry } from "../../schemas/catalogs.ts";
import { catalogQueries } from "../../schemas/skill.ts";
import { findOperation } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import type { DiscoveryContext } from "./documents.ts";
import { MCP_CARD_PATHS, MCP_CARD_TYPE, shortDescription } from "./mcp-card.ts";
import { isOperationAvailable, type ServiceState } from "./state.ts";

export const AI_CATALOG_TYPE = "application/ai-catalog+json";
/**
 * ARD's entry type for one SKILL.md. An entry's `type` must be one of ARD's discovery types (Lighthouse's
 * `ard-schema` audit warns otherwise), and none names OpenAPI: the HTTP API is listed in the RFC 9727
 * api-catalog instead, and each skill gets its own entry rather than the skills index.
 */
export const SKILL_TYPE = 'text/markdown; profile="urn:air:agent-skills"' as const;
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
 * The AI catalog (Agent-Card/ai-catalog 1.0; ARD v0.91): the MCP server card and each agent skill,
 * each with the queries it answers. Live: the MCP entry leaves
 * the moment the server is switched off.
 */
export function aiCatalogDocument(ctx: DiscoveryContext, state: ServiceState) {
  const { service } = ctx.content;
  const [localName = "service"] = service.identifier.split("/").slice(1);
  const site = (path: string) => absolute(ctx.siteUrl, path);
  const entries: AiCatalogEntry[] = [];
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
  if (service.publish.agent_skills) {
    for (const skill of ctx.content.skills) {
      entries.push({
        identifier: urn(ctx, "skills", skill.data.name),
        displayName: `${service.name} skill: ${skill.data.name}`,
        type: SKILL_TYPE,
        url: site(paths.skill(skill.slug)),
        version: service.version,
        description: skill.data.description,
        tags: ["agent-skills"],
        representativeQueries: catalogQueries(skill.data),
      });
    }
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
