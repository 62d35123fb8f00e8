import { AGENT_SCOPES, DEFAULT_AGENT_SCOPES, OPERATIONS } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { authentication, availableOperations, type DiscoveryContext, serviceRef } from "./documents.ts";
import { MCP_AGENT_PATH, OAUTH_PATHS, PROTECTED_RESOURCES, protectedResource } from "./oauth.ts";
import type { ServiceState } from "./state.ts";

export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  "waitlist:write": "Join the agent waiting list (once per registration).",
  "survey:write": "Answer the agent survey (once per registration).",
  "monitors:write": "Watch sites for this registration and read their history (granted by staff, not at registration).",
};

/** `/agents.json`: how an agent gets in (registration, token, scopes) and which tools it can use. */
export function agentsDocument(
  ctx: DiscoveryContext,
  state: ServiceState,
  extras: { openapi: boolean; mcpCard: boolean },
) {
  const available = availableOperations(ctx, state);
  const availableIds = new Set(available.map((operation) => operation.id));
  const scopes = AGENT_SCOPES;
  const { publish } = ctx.content.service;
  const mcpOn = publish.mcp_server && state.switches.mcp;
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("agents")),
    service: serviceRef(ctx),
    registration: {
      endpoint: absolute(ctx.siteUrl, "/api/v1/agents/register"),
      method: "POST" as const,
      request_schema: absolute(ctx.siteUrl, paths.schema("agent-registration")),
      token: {
        header: "Authorization: Bearer <token>",
        format: "agt_ followed by 32 base62 characters and a 6-character checksum; shown once",
        lifetime: "until revoked",
      },
      default_scopes: [...DEFAULT_AGENT_SCOPES],
      docs: absolute(ctx.docsUrl, "/docs/authentication"),
    },
    scopes: scopes.map((scope) => ({
      name: scope,
      description: SCOPE_DESCRIPTIONS[scope] ?? scope,
      operations: OPERATIONS.filter(
        (operation) =>
          operation.authentication.type === "bearer" &&
          operation.authentication.scope === scope &&
          availableIds.has(operation.id),
      ).map((operation) => operation.id),
    })),
    tools: {
      openapi: extras.openapi ? absolute(ctx.siteUrl, "/openapi.json") : null,
      mcp: mcpOn
        ? {
            endpoint: absolute(ctx.siteUrl, "/mcp"),
            agent_endpoint: absolute(ctx.siteUrl, MCP_AGENT_PATH),
            transport: "streamable-http" as const,
            server_card:
              extras.mcpCard && publish.mcp_server_card
                ? absolute(ctx.siteUrl, "/.well-known/mcp/server-card.json")
                : null,
          }
        : null,
      skills: publish.agent_skills ? absolute(ctx.siteUrl, "/.well-known/agent-skills/index.json") : null,
      capabilities: absolute(ctx.siteUrl, "/capabilities.json"),
    },
    oauth: {
      authorization_server: absolute(ctx.siteUrl, OAUTH_PATHS.metadata),
      protected_resources: PROTECTED_RESOURCES.map((name) => {
        const resource = protectedResource(ctx.siteUrl, name);
        return { resource: resource.url, resource_metadata: resource.metadataUrl };
      }),
      token_format:
        "oat_ followed by 43 base64url characters and a 6-character checksum; an hour, renewed with its ort_ refresh token",
      docs: absolute(ctx.docsUrl, "/docs/agents/sign-in-from-mcp-clients"),
    },
    endpoints: available
      .filter((operation) => operation.capability !== undefined)
      .map((operation) => ({
        operation: operation.id,
        method: operation.method,
        url: absolute(ctx.siteUrl, operation.path),
        // What to send: the JSON Schema the server validates the body with (null for a read).
        request_schema: operation.requestSchema ? absolute(ctx.siteUrl, paths.schema(operation.requestSchema)) : null,
        authentication: authentication(operation, ctx),
      })),
  };
}
