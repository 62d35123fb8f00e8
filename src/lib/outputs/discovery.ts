import { agentsDocument } from "../discovery/agents.ts";
import { agentsMarkdown } from "../discovery/agents-md.ts";
import { AI_CATALOG_PATHS, aiCatalogDocument } from "../discovery/ai-catalog.ts";
import { apiCatalogDocument } from "../discovery/api-catalog.ts";
import {
  capabilitiesDocument,
  roadmapDocument,
  serviceRef,
  serviceStateDocument,
  termsDocument,
} from "../discovery/documents.ts";
import { MCP_CARD_PATHS, serverCardDocument } from "../discovery/mcp-card.ts";
import {
  authorizationServerMetadata,
  OAUTH_PATHS,
  PROTECTED_RESOURCES,
  protectedResourceMetadata,
  protectedResourceMetadataPath,
} from "../discovery/oauth.ts";
import { pricingDocument } from "../discovery/pricing.ts";
import { skillsIndexDocument } from "../discovery/skills.ts";
import { fullyAvailableState } from "../discovery/state.ts";
import { allPublishedSchemas } from "../json-schemas.ts";
import { openApiDocument } from "../openapi/document.ts";
import { OPERATIONS } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact, TYPES } from "./artifact.ts";

/**
 * Discovery documents as the build sees them (everything available). The ones that depend on
 * runtime state are marked live: the server recomputes them with the same functions.
 */
export function discoveryArtifacts(ctx: BuildContext, extras: { openapi: boolean; mcpCard: boolean }): Artifact[] {
  const state = fullyAvailableState(ctx.builtAt);
  const schemas = allPublishedSchemas(ctx.content, ctx.siteUrl);
  const live = (artifact: Artifact): Artifact => ({ ...artifact, cache: "live", live: true });
  const artifacts: Artifact[] = [
    live(jsonArtifact("/capabilities.json", capabilitiesDocument(ctx, state), "live")),
    live(jsonArtifact("/.well-known/service-state.json", serviceStateDocument(ctx, state), "live")),
    live(jsonArtifact("/pricing.json", pricingDocument(ctx, state), "live")),
    live(jsonArtifact("/agents.json", agentsDocument(ctx, state, extras), "live")),
    jsonArtifact("/terms.json", termsDocument(ctx), "discovery"),
    jsonArtifact("/roadmap.json", roadmapDocument(ctx), "discovery"),
    jsonArtifact(
      "/.well-known/api-catalog",
      apiCatalogDocument(ctx, { openapi: extras.openapi, schemaNames: [...schemas.keys()] }),
      "discovery",
      TYPES.linkset,
    ),
    jsonArtifact("/api/v1", apiRootDocument(ctx), "discovery"),
    // The keys are the running service's (a file beside its database, or BOT_SIGNING_KEY): the server answers.
    live(jsonArtifact(paths.keyDirectory(), { keys: [] }, "live", TYPES.keyDirectory)),
    ...oauthArtifacts(ctx),
  ];
  for (const [name, schema] of schemas)
    artifacts.push(jsonArtifact(paths.schema(name), schema, "discovery", TYPES.schema));
  artifacts.push(...agentSurfaceArtifacts(ctx, extras, live));
  if (ctx.content.service.publish.agent_skills) {
    artifacts.push(jsonArtifact("/.well-known/agent-skills/index.json", skillsIndexDocument(ctx), "discovery"));
    for (const skill of ctx.content.skills) {
      artifacts.push({ url: paths.skill(skill.slug), body: skill.raw, type: TYPES.markdown, cache: "discovery" });
    }
  }
  return artifacts;
}

/**
 * The agent-native surface: OpenAPI, AGENTS.md, the AI catalog (at both ARD paths) and the MCP server
 * card (at its canonical path and the scanners' aliases, the same bytes). The catalog and the card
 * follow the `mcp` switch, so they are live: the server answers them from the same functions.
 */
function agentSurfaceArtifacts(
  ctx: BuildContext,
  extras: { openapi: boolean; mcpCard: boolean },
  live: (artifact: Artifact) => Artifact,
): Artifact[] {
  const state = fullyAvailableState(ctx.builtAt);
  const artifacts: Artifact[] = [{ url: "/AGENTS.md", body: agentsMarkdown(ctx), type: TYPES.markdown, cache: "docs" }];
  if (extras.openapi) artifacts.push(jsonArtifact("/openapi.json", openApiDocument(ctx), "discovery", TYPES.openapi));
  const catalog = aiCatalogDocument(ctx, state);
  for (const url of AI_CATALOG_PATHS) artifacts.push(live(jsonArtifact(url, catalog, "live", TYPES.aiCatalog)));
  if (extras.mcpCard) {
    const card = serverCardDocument(ctx);
    for (const url of MCP_CARD_PATHS) artifacts.push(live(jsonArtifact(url, card, "live", TYPES.mcpCard)));
  }
  return artifacts;
}

/**
 * OAuth discovery: the authorization server's RFC 8414 metadata and each protected resource's RFC 9728
 * document. Functions of the site's URLs only, so static like the other discovery documents (a CDN or
 * the static front serves them with CORS, and OPTIONS is answered by the API).
 */
function oauthArtifacts(ctx: BuildContext): Artifact[] {
  return [
    jsonArtifact(OAUTH_PATHS.metadata, authorizationServerMetadata(ctx.siteUrl, ctx.docsUrl), "discovery"),
    ...PROTECTED_RESOURCES.map((name) =>
      jsonArtifact(
        protectedResourceMetadataPath(name),
        protectedResourceMetadata(ctx.siteUrl, ctx.docsUrl, name),
        "discovery",
      ),
    ),
  ];
}

/** `/api/v1`: the API's root, the `item` the api-catalog names; points at everything else. */
function apiRootDocument(ctx: BuildContext) {
  const site = (path: string) => absolute(ctx.siteUrl, path);
  return {
    service: serviceRef(ctx),
    docs: absolute(ctx.docsUrl, paths.docsHome()),
    capabilities: site("/capabilities.json"),
    api_catalog: site("/.well-known/api-catalog"),
    openapi: site("/openapi.json"),
    operations: OPERATIONS.map((operation) => ({
      id: operation.id,
      method: operation.method,
      path: operation.path,
      summary: operation.summary,
    })),
  };
}
