import { type CheckContext, defineCheck, fail, isSecureOrLocal, judge, notApplicable } from "../../check-types.ts";
import { loadAuthorizationServerMetadata, loadProtectedResourceMetadata } from "../../documents/agent-docs.ts";
import { absence, describeState } from "../../documents/document.ts";
import { findOpenApi } from "../../documents/openapi.ts";
import { declaresOAuth } from "../../openapi-lint.ts";
import { describeIssues } from "../../parse/json.ts";
import { isSuccess } from "../../parse/media-type.ts";
import { AuthorizationServerMetadataSchema, ProtectedResourceMetadataSchema } from "../../remote/auth.ts";

async function readProtectedResource(context: CheckContext) {
  const document = await loadProtectedResourceMetadata(context);
  const parsed = document.json?.ok === true ? ProtectedResourceMetadataSchema.safeParse(document.json.value) : null;
  return {
    document,
    metadata: parsed?.success === true ? parsed.data : null,
    issues: parsed?.success === false ? describeIssues(parsed.error) : null,
  };
}

/** Auth metadata is only demanded when something on the site says the API uses OAuth. */
async function oauthRequiredBy(context: CheckContext): Promise<string | null> {
  const { spec } = await findOpenApi(context);
  return declaresOAuth(spec) ? "the OpenAPI description declares an OAuth scheme" : null;
}

export const protectedResource = defineCheck({
  id: "oauth.prm",
  requests: "`/.well-known/oauth-protected-resource`",
  passes: "`resource` and `authorization_servers`; `401`s carry `resource_metadata`",
  title: "OAuth protected-resource metadata (RFC 9728), when auth is used",
  category: "capabilities",
  severity: "medium",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    "If the API uses OAuth, serve /.well-known/oauth-protected-resource with `resource` (this origin) and `authorization_servers`, and put resource_metadata in 401 challenges.",
  prompt:
    'Serve /.well-known/oauth-protected-resource as JSON: {"resource":"https://<our origin>","authorization_servers":["https://<issuer>"],"scopes_supported":[…],"bearer_methods_supported":["header"]}, and make 401 responses send WWW-Authenticate: Bearer resource_metadata="https://<origin>/.well-known/oauth-protected-resource".',
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9728"],
  async run(context) {
    const { document, metadata, issues } = await readProtectedResource(context);
    const absent = absence(document, "protected-resource metadata");
    if (absent !== null) {
      const required = await oauthRequiredBy(context);
      return required === null
        ? notApplicable(`${absent}, and nothing on the site requires it`)
        : fail(`${required}, but there is ${absent}`);
    }
    if (document.state !== "found") return fail(describeState(document, "the protected-resource metadata"));
    if (metadata === null) return fail(`the protected-resource metadata is invalid: ${issues ?? "not JSON"}`);
    const problems: string[] = [];
    if (!URL.canParse(metadata.resource) || new URL(metadata.resource).origin !== context.target.origin)
      problems.push(`resource "${metadata.resource}" is not a URL on ${context.target.origin}`);
    const servers = metadata.authorization_servers ?? [];
    const insecure = servers.filter((server) => !URL.canParse(server) || !isSecureOrLocal(context, new URL(server)));
    if (insecure.length > 0)
      problems.push(`authorization server(s) are not absolute https URLs: ${insecure.join(", ")}`);
    return judge(
      { problems },
      servers.length === 0
        ? "metadata says no authorization server is needed"
        : `resource ${metadata.resource}, ${servers.length} authorization server(s)`,
    );
  },
});

export const authorizationServer = defineCheck({
  id: "oauth.as",
  requests:
    "only when OAuth is used (the protected-resource metadata names an authorization server, or the OpenAPI description declares an OAuth scheme), for the issuer (the first of `authorization_servers`, else the site's origin): first RFC 8414 metadata at `<issuer origin>/.well-known/oauth-authorization-server<issuer path>`, then, unless that answered 2xx with a document (not an HTML page), OpenID Connect discovery at `<issuer>/.well-known/openid-configuration`; the `jwks_uri` when one is given",
  passes:
    "metadata with an `issuer` and a `token_endpoint`, its `issuer` equal to the one it was looked up for (RFC 8414 §3.3, a trailing slash aside), `https` authorization and token endpoints, a `jwks_uri` (when given) that answers 2xx; `S256` among `code_challenge_methods_supported` (`warn` without); no metadata at either URL `fail`s",
  title: "OAuth authorization-server metadata (RFC 8414, then OpenID discovery), when auth is used",
  category: "capabilities",
  severity: "medium",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    "If the API uses OAuth, serve RFC 8414 metadata whose issuer equals the URL it is fetched from, with https endpoints, S256 PKCE and a jwks_uri that resolves.",
  prompt:
    'Serve /.well-known/oauth-authorization-server (RFC 8414) with issuer exactly equal to our issuer URL, https authorization_endpoint and token_endpoint, code_challenge_methods_supported including "S256", and a jwks_uri that answers 200.',
  specUrls: ["https://www.rfc-editor.org/rfc/rfc8414", "https://openid.net/specs/openid-connect-discovery-1_0.html"],
  async run(context) {
    const { metadata: resource } = await readProtectedResource(context);
    const required =
      (resource?.authorization_servers?.length ?? 0) > 0
        ? "the protected-resource metadata names an authorization server"
        : await oauthRequiredBy(context);
    // Nothing points at an authorization server, so there is nothing to look up (and no request is spent on it).
    if (required === null)
      return notApplicable(
        "nothing on the site uses OAuth (no authorization server in protected-resource metadata, no OAuth scheme in OpenAPI)",
      );
    const issuer = resource?.authorization_servers?.[0] ?? context.target.origin;
    const document = await loadAuthorizationServerMetadata(context, issuer);
    if (document.state === "missing") return fail(`${required}, but its metadata is missing (${document.url})`);
    if (document.state !== "found" || document.json === null)
      return fail(describeState(document, "the authorization-server metadata"));
    const parsed = document.json.ok ? AuthorizationServerMetadataSchema.safeParse(document.json.value) : null;
    if (parsed === null || !parsed.success)
      return fail(
        `the authorization-server metadata is invalid: ${parsed === null ? "not JSON" : describeIssues(parsed.error)}`,
      );
    const metadata = parsed.data;
    const errors: string[] = [];
    if (metadata.issuer.replace(/\/+$/, "") !== issuer.replace(/\/+$/, ""))
      errors.push(`issuer "${metadata.issuer}" differs from ${issuer} (RFC 8414 §3.3)`);
    for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint]) {
      if (endpoint !== undefined && (!URL.canParse(endpoint) || !isSecureOrLocal(context, new URL(endpoint))))
        errors.push(`${endpoint} is not an https URL`);
    }
    if (metadata.jwks_uri !== undefined) {
      const jwks = await context.trail.resolve(metadata.jwks_uri);
      if (!isSuccess(jwks)) errors.push(`jwks_uri answers ${jwks.status}`);
    }
    const cautions = (metadata.code_challenge_methods_supported ?? []).includes("S256")
      ? []
      : ["code_challenge_methods_supported does not include S256 (MCP clients need PKCE)"];
    return judge({ problems: errors, cautions }, `issuer ${metadata.issuer} with S256 PKCE`);
  },
});

export const authChecks = [protectedResource, authorizationServer];
