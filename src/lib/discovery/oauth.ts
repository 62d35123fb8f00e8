import { AGENT_SCOPES, DEFAULT_AGENT_SCOPES } from "../registry.ts";
import { absolute } from "../urls.ts";

/**
 * Where the authorization server answers. Its issuer is the site itself (RFC 8414 §2: the metadata lives at
 * `/.well-known/oauth-authorization-server` of an issuer without a path), its endpoints under `/oauth/`.
 */
export const OAUTH_PATHS = {
  metadata: "/.well-known/oauth-authorization-server",
  authorize: "/oauth/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  revoke: "/oauth/revoke",
  /** Where a person answers an authorization request: `/oauth/consent/<interaction uid>`. */
  consent: "/oauth/consent",
} as const;

/** The agent MCP endpoint: it acts for a registration, so it always asks for a token (the public `/mcp` never does). */
export const MCP_AGENT_PATH = "/mcp/agent";

export type ResourceName = "api" | "mcp-agent";

/**
 * The resources that accept OAuth access tokens, each with its metadata document (RFC 9728 §3.1: the
 * well-known path with the resource's own path appended). A token is issued for exactly one of them
 * (RFC 8707) and refused at the other.
 */
const RESOURCE_PATHS: Record<ResourceName, { path: string; title: string }> = {
  api: { path: "", title: "The AgentReady HTTP API" },
  "mcp-agent": { path: MCP_AGENT_PATH, title: "The AgentReady MCP server for an agent registration" },
};

export const PROTECTED_RESOURCE_METADATA_PATH = "/.well-known/oauth-protected-resource";

/** One resource server, as its challenges and metadata name it. */
export interface ProtectedResource {
  name: ResourceName;
  /** The canonical resource identifier: the token's audience, exactly (no trailing slash). */
  url: string;
  /** Its protected-resource metadata document. */
  metadataUrl: string;
  /** What a client asks for first; more can be had by step-up (403 `insufficient_scope`). */
  scopes: readonly string[];
}

export function protectedResource(siteUrl: string, name: ResourceName): ProtectedResource {
  const { path } = RESOURCE_PATHS[name];
  return {
    name,
    url: absolute(siteUrl, path),
    metadataUrl: absolute(siteUrl, `${PROTECTED_RESOURCE_METADATA_PATH}${path}`),
    scopes: DEFAULT_AGENT_SCOPES,
  };
}

export const PROTECTED_RESOURCES: readonly ResourceName[] = ["api", "mcp-agent"];

/** The metadata path of each protected resource (what the build writes). */
export function protectedResourceMetadataPath(name: ResourceName): string {
  return `${PROTECTED_RESOURCE_METADATA_PATH}${RESOURCE_PATHS[name].path}`;
}

/**
 * RFC 9728 protected-resource metadata. `scopes_supported` is the basic set a client asks for
 * (MCP 2025-11-25: clients request what it lists; VS Code asks for all of it), not every scope there is.
 */
export function protectedResourceMetadata(siteUrl: string, docsUrl: string, name: ResourceName) {
  const resource = protectedResource(siteUrl, name);
  return {
    resource: resource.url,
    resource_name: RESOURCE_PATHS[name].title,
    authorization_servers: [siteUrl.replace(/\/+$/, "")],
    scopes_supported: [...resource.scopes],
    bearer_methods_supported: ["header"],
    resource_documentation: absolute(docsUrl, "/docs/agents/sign-in-from-mcp-clients"),
  };
}

/** The 401 challenge of a protected resource (RFC 6750 §3, RFC 9728 §5.1): where its metadata is and what to ask for. */
export function bearerChallenge(resource: ProtectedResource, error?: { code: string; description: string }): string {
  const parts = [`resource_metadata="${resource.metadataUrl}"`, `scope="${resource.scopes.join(" ")}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, "'")}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** Who may authenticate at the token endpoint, and how: public clients (PKCE only) and DCR's confidential ones. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;

/**
 * RFC 8414 metadata of the authorization server, written by the build like every other discovery
 * document. The server's authorization server (oidc-provider, api/oauth/) is configured from the same
 * constants, and a test holds every field here equal to the one the library itself would publish.
 */
export function authorizationServerMetadata(siteUrl: string, docsUrl: string) {
  const issuer = siteUrl.replace(/\/+$/, "");
  const at = (path: string) => absolute(issuer, path);
  return {
    issuer,
    authorization_endpoint: at(OAUTH_PATHS.authorize),
    token_endpoint: at(OAUTH_PATHS.token),
    registration_endpoint: at(OAUTH_PATHS.register),
    revocation_endpoint: at(OAUTH_PATHS.revoke),
    // No jwks_uri: nothing this server issues is signed for clients to verify (access tokens are opaque,
    // and `openid` is refused, so no ID token is ever made).
    scopes_supported: [...AGENT_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["form_post", "fragment", "query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    code_challenge_methods_supported: ["S256"],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: absolute(docsUrl, "/docs/agents/sign-in-from-mcp-clients"),
  };
}
