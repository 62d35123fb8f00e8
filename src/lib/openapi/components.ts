import { z } from "zod";
import type { Content } from "../../content/model.ts";
import { SCOPE_DESCRIPTIONS } from "../discovery/agents.ts";
import { OAUTH_PATHS, protectedResource, type ResourceName } from "../discovery/oauth.ts";
import { RESPONSE_SCHEMAS, requestSchemas } from "../json-schemas.ts";
import { PROBLEM_TYPES } from "../problems.ts";
import { AGENT_SCOPES } from "../registry.ts";
import { absolute } from "../urls.ts";

type Json = Record<string, unknown>;

/** `agent-waitlist-entry` → `AgentWaitlistEntry`: the component name of a schema published as `/schemas/<name>.json`. */
export function componentName(schemaName: string): string {
  return schemaName
    .split(/[^a-zA-Z0-9]+/)
    .filter((part) => part !== "")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

export const schemaRef = (schemaName: string) => ({ $ref: `#/components/schemas/${componentName(schemaName)}` });
export const problemResponseRef = (status: number) => ({ $ref: `#/components/responses/Problem${status}` });
export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
export const CLIENT_ERROR_REF = { $ref: "#/components/responses/ClientError" };

/** OpenAPI 3.1's dialect is JSON Schema 2020-12, the same as `/schemas/`; the `$schema` member is left out. */
function toComponent(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "throw",
  }) as Json;
  return rest;
}

/** Every request body (as sent) and response body (as answered), under the names `/schemas/` publishes them by. */
export function schemaComponents(content: Content): Json {
  const components: Json = {};
  const add = (name: string, schema: z.ZodType, io: "input" | "output") => {
    const key = componentName(name);
    if (key in components) throw new Error(`Two schemas map to the OpenAPI component ${key}`);
    components[key] = toComponent(schema, io);
  };
  for (const [name, schema] of Object.entries(requestSchemas(content))) add(name, schema, "input");
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) add(name, schema, "output");
  return components;
}

/** Response headers, by the names the operations reference. */
const HEADERS: Json = {
  RateLimit: {
    description:
      'What is left of each limit this request counted against (draft-ietf-httpapi-ratelimit-headers), e.g. `"checks";r=9;t=60`.',
    schema: { type: "string" },
  },
  RateLimitPolicy: {
    description: 'The limits that apply: quota `q` per window `w` seconds, e.g. `"checks";q=10;w=60`.',
    schema: { type: "string" },
  },
  RetryAfter: {
    description: "Seconds to wait before retrying (RFC 9110 §10.2.3).",
    schema: { type: "integer", minimum: 0 },
  },
  WWWAuthenticate: {
    description:
      '`Bearer realm="agents", resource_metadata="…"` naming the protected-resource metadata (RFC 9728 §5.1), with `error="invalid_token"` when a bad token was sent or `error="insufficient_scope", scope="…"` (RFC 6750 §3).',
    schema: { type: "string" },
  },
  Allow: { description: "The methods this address accepts.", schema: { type: "string" } },
};

/** The headers of `HEADERS` that the given parts of the document refer to (an unused component is noise to a reader). */
export function referencedHeaders(...parts: unknown[]): Json {
  const text = JSON.stringify(parts);
  return Object.fromEntries(
    Object.entries(HEADERS).filter(([name]) => text.includes(`"#/components/headers/${name}"`)),
  );
}

const STATUS_HEADERS: Record<number, Json> = {
  401: { "WWW-Authenticate": headerRef("WWWAuthenticate") },
  403: { "WWW-Authenticate": headerRef("WWWAuthenticate") },
  405: { Allow: headerRef("Allow") },
  429: {
    "Retry-After": headerRef("RetryAfter"),
    RateLimit: headerRef("RateLimit"),
    "RateLimit-Policy": headerRef("RateLimitPolicy"),
  },
  502: { "Retry-After": headerRef("RetryAfter") },
  503: { "Retry-After": headerRef("RetryAfter") },
};

/**
 * One problem response per status some operation answers (and 500, everyone's `default`), its
 * description naming every problem `code` the API answers with at that status (each has a page at
 * `/problems/<code>`); and `ClientError`, the `4XX` of operations with no client error of their own.
 * Every error is `application/problem+json`.
 */
export function problemResponses(answered: ReadonlySet<number>): Json {
  const statuses = [...new Set(PROBLEM_TYPES.map((type) => type.status))]
    .filter((status) => answered.has(status) || status === 500)
    .sort((a, b) => a - b);
  const responses: Json = {
    ClientError: {
      description:
        "Not expected: every well-formed request to this address succeeds. Any client error would be a problem document (RFC 9457).",
      content: { "application/problem+json": { schema: schemaRef("problem") } },
    },
  };
  for (const status of statuses) {
    const types = PROBLEM_TYPES.filter((type) => type.status === status);
    const description = types.map((type) => `\`${type.code}\`: ${type.title}.`).join(" ");
    const headers = STATUS_HEADERS[status];
    responses[`Problem${status}`] = {
      description,
      ...(headers ? { headers } : {}),
      content: { "application/problem+json": { schema: schemaRef("problem") } },
    };
  }
  return responses;
}

/** OAuth 2.1 for one protected resource: the same authorization server, tokens bound to that resource. */
function oauthScheme(siteUrl: string, name: ResourceName, scopes: Record<string, string>): Json {
  const at = (path: string) => absolute(siteUrl, path);
  const resource = protectedResource(siteUrl, name);
  const where = name === "api" ? "this API" : "the agent MCP endpoint";
  return {
    type: "oauth2",
    description: `An OAuth 2.1 access token (\`oat_…\`) from this site's authorization server (metadata: ${at(OAUTH_PATHS.metadata)}), issued for ${where} with \`resource=${resource.url}\` (RFC 8707, metadata: ${resource.metadataUrl}); a token issued for another resource is refused. Authorization code with PKCE S256 only; a client identifies itself by a client ID metadata document URL or registers dynamically, and a person allows it on the consent page, for a new or an existing agent registration.`,
    flows: {
      authorizationCode: {
        authorizationUrl: at(OAUTH_PATHS.authorize),
        tokenUrl: at(OAUTH_PATHS.token),
        refreshUrl: at(OAUTH_PATHS.token),
        scopes,
      },
    },
  };
}

/**
 * Two ways to the same operations: an agent token (a bearer token of our own, RFC 6750, from
 * registration; OpenAPI 3.1 lets a non-OAuth requirement list "role names which are required for the
 * execution", §4.8.30, so operations list their scope there and `x-scopes` documents each), or an
 * OAuth 2.1 access token from this site's authorization server, issued for the API's resource.
 */
export function securitySchemes(siteUrl: string): Json {
  const scopes = Object.fromEntries(AGENT_SCOPES.map((scope) => [scope, SCOPE_DESCRIPTIONS[scope] ?? scope]));
  return {
    oauth: oauthScheme(siteUrl, "api", scopes),
    oauthMcpAgent: oauthScheme(siteUrl, "mcp-agent", scopes),
    agentToken: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "agt_ followed by 32 base62 characters and a 6-character checksum",
      description: `An agent access token from POST /api/v1/agents/register (shown once), sent as \`Authorization: Bearer <token>\`. Each operation's security requirement names the scope it needs (none: any valid token). Scopes: ${AGENT_SCOPES.map((scope) => `\`${scope}\` (${scopes[scope] ?? scope})`).join(", ")}.`,
      "x-scopes": scopes,
    },
  };
}
