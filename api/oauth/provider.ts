import { createHmac } from "node:crypto";
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from "oidc-provider";
import { OAUTH_PATHS, TOKEN_ENDPOINT_AUTH_METHODS } from "../../src/lib/discovery/oauth.ts";
import { AGENT_SCOPES } from "../../src/lib/registry.ts";
import type { Sql } from "../db/sql.ts";
import { hashToken, randomBase62, sameHash } from "../platform/auth/agent-token.ts";
import { OAUTH_TOKEN_PREFIXES, prefixedToken } from "../platform/auth/oauth-token.ts";
import { ringKeys, type SecretRing } from "../platform/secret-ring.ts";
import { ed25519KeyFromSeed } from "../platform/signing/jwk.ts";
import { renderAuthorizationError } from "./consent/error-page.ts";
import { redirectKind, redirectMatches, refusedRedirects } from "./redirect-uris.ts";
import { type ResourceServers, resourceIndicators } from "./resources.ts";
import { HASHED_SECRET_PREFIX, libsqlAdapter } from "./storage/adapter.ts";

/** The library's key set (one key it never signs with for a client: see signingJwks). */
export const OAUTH_JWKS_PATH = "/oauth/jwks";

/** How long things last (seconds): what the consent page tells a person, and the runbook. */
export const OAUTH_LIFETIMES = {
  accessToken: 60 * 60,
  authorizationCode: 60,
  refreshToken: 30 * 24 * 60 * 60,
  /** A grant outlives its refresh tokens a little, so the last one still finds it. */
  grant: 31 * 24 * 60 * 60,
  session: 30 * 24 * 60 * 60,
  interaction: 30 * 60,
} as const;

export interface AuthorizationServerDeps {
  siteUrl: string;
  db: () => Sql;
  now: () => Date;
  /** The server secret ring: the keys of the signed cookies, and of the one signing key the library insists on. */
  secrets: SecretRing;
  resources: ResourceServers;
  /** Fetches a client ID metadata document through the SSRF guard (client-document-fetch.ts). */
  fetchClientDocument: NonNullable<Configuration["fetch"]>;
  /** Which grant answers a request without asking again (consent/remembered.ts). */
  loadExistingGrant: NonNullable<Configuration["loadExistingGrant"]>;
  /** Whether a registration may still be acted for: a suspended or unknown one gets no code and no token. */
  accountStands: (agentId: string) => Promise<boolean>;
}

/**
 * The library wants a signing key (for ID tokens); none is ever used, since `openid` is refused on
 * the consent page and access tokens are opaque. Derived from the server secret, so every instance
 * has the same one without another secret to keep.
 */
function signingJwks(secrets: SecretRing) {
  const seed = createHmac("sha256", secrets.current).update("oauth-provider-signing-key\0v1").digest("base64url");
  const { privateKey, keyid } = ed25519KeyFromSeed(seed);
  return { keys: [{ ...privateKey.export({ format: "jwk" }), kid: keyid, use: "sig", alg: "EdDSA" }] };
}

/** Cookies: `__Host-` names on https (Secure, path /, no domain); plain names on a local http origin. */
function cookies(siteUrl: string, secrets: SecretRing): Configuration["cookies"] {
  const secure = new URL(siteUrl).protocol === "https:";
  const options = { httpOnly: true, sameSite: "lax" as const, secure, signed: true };
  return {
    keys: ringKeys(secrets),
    // The interaction and resume cookies are scoped to their own paths by the library, which `__Host-`
    // forbids; `__Secure-` is the strongest prefix they can take.
    names: secure
      ? { session: "__Host-oauth_session", interaction: "__Secure-oauth_interaction", resume: "__Secure-oauth_resume" }
      : { session: "oauth_session", interaction: "oauth_interaction", resume: "oauth_resume" },
    long: options,
    short: options,
  };
}

/** Client metadata policy, run for DCR and client ID metadata documents alike (redirect-uris.ts). */
function validateClientMetadata(_ctx: KoaContextWithOIDC | undefined, key: string, _value: unknown, metadata: object) {
  if (key !== "software_id") return;
  const uris: unknown = Reflect.get(metadata, "redirect_uris");
  const refused = refusedRedirects(uris);
  if (refused.length > 0) throw new errors.InvalidRedirectUri(refused.join("; "));
  // A private-use scheme can only be a native app's; the library then also never skips the consent page for it.
  const privateUse = (uri: unknown) => {
    const kind = typeof uri === "string" ? redirectKind(uri) : null;
    return kind !== null && "kind" in kind && kind.kind === "private-use";
  };
  if (Array.isArray(uris) && uris.some(privateUse)) Reflect.set(metadata, "application_type", "native");
}

/** Replaces a method of one of the library's model classes (this provider's own classes, not the package's). */
function override(prototype: object, name: string, make: (original: (...args: unknown[]) => unknown) => unknown) {
  const original: unknown = Reflect.get(prototype, name);
  if (typeof original !== "function") throw new Error(`oidc-provider no longer has ${name}: re-check provider.ts`);
  Reflect.defineProperty(prototype, name, { value: make(original as (...args: unknown[]) => unknown), writable: true });
}

/**
 * The authorization server: oidc-provider 9 (OpenID-certified), configured as an OAuth 2.1 server
 * for MCP clients. Authorization code with PKCE S256 only, `resource` required and bound into the
 * token's audience (RFC 8707), client ID metadata documents (draft-02) fetched through our SSRF guard,
 * dynamic registration (RFC 7591) as the fallback, refresh tokens rotated with reuse detection (a
 * replayed one revokes the whole grant), revocation (RFC 7009) and `iss` on every authorization
 * response (RFC 9207). Everything it stores goes through the libSQL adapter, hashed.
 */
export function createAuthorizationServer(deps: AuthorizationServerDeps): Provider {
  const issuer = deps.siteUrl.replace(/\/+$/, "");
  const provider = new Provider(issuer, {
    adapter: libsqlAdapter({ db: deps.db, now: () => Math.floor(deps.now().getTime() / 1000) }),
    clientAuthMethods: [...TOKEN_ENDPOINT_AUTH_METHODS],
    // Public clients and credentialed requests without cookies: any origin may call the token endpoint.
    clientBasedCORS: () => true,
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      // The one key there is (signingJwks) is Ed25519.
      id_token_signed_response_alg: "EdDSA",
    },
    cookies: cookies(issuer, deps.secrets),
    extraClientMetadata: { properties: ["software_id"], validator: validateClientMetadata },
    features: {
      devInteractions: { enabled: false },
      registration: {
        enabled: true,
        initialAccessToken: false,
        issueRegistrationAccessToken: false,
        // Never an https URL: those are client ID metadata documents (draft-02 §4).
        idFactory: () => `dcr_${randomBase62(32)}`,
      },
      // Only the client a token was issued to may revoke it (RFC 7009 §2.1); revoking either token ends the grant's tokens.
      revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: "draft-02",
        cacheDuration: { min: 30, max: 24 * 60 * 60 },
      },
      resourceIndicators: resourceIndicators(deps.resources),
    },
    fetch: deps.fetchClientDocument,
    fetchResponseBodyLimits: {
      "client_id metadata document": 5 * 1024,
      jwks_uri: 64 * 1024,
      sector_identifier_uri: 64 * 1024,
    },
    // The library asks at every code and refresh exchange: a suspended registration's grants stop there too.
    findAccount: async (_ctx, id) =>
      (await deps.accountStands(id)) ? { accountId: id, claims: () => ({ sub: id }) } : undefined,
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATHS.consent}/${interaction.uid}` },
    // MCP clients never ask for offline_access (the spec says they should not need to): refresh tokens come anyway.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    jwks: signingJwks(deps.secrets),
    loadExistingGrant: deps.loadExistingGrant,
    allowOmittingSingleRegisteredRedirectUri: false,
    pkce: { required: () => true },
    renderError: renderAuthorizationError,
    responseTypes: ["code"],
    routes: {
      authorization: OAUTH_PATHS.authorize,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.register,
      revocation: OAUTH_PATHS.revoke,
      jwks: OAUTH_JWKS_PATH,
      end_session: "/oauth/end-session",
      introspection: "/oauth/introspect",
      userinfo: "/oauth/userinfo",
      pushed_authorization_request: "/oauth/par",
      code_verification: "/oauth/device",
      device_authorization: "/oauth/device/auth",
      backchannel_authentication: "/oauth/backchannel",
      challenge: "/oauth/challenge",
      credential: "/oauth/credential",
    },
    scopes: [...AGENT_SCOPES],
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? OAUTH_LIFETIMES.accessToken,
      AuthorizationCode: OAUTH_LIFETIMES.authorizationCode,
      Grant: OAUTH_LIFETIMES.grant,
      Interaction: OAUTH_LIFETIMES.interaction,
      // Rotation keeps the first token's deadline: signing in again after 30 days, whatever the use.
      RefreshToken: (ctx) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? OAUTH_LIFETIMES.refreshToken,
      Session: OAUTH_LIFETIMES.session,
    },
  });
  // Behind a proxy (TRUST_PROXY), the issuer's scheme is what the public URL says, not the socket's.
  provider.proxy = true;
  // Opaque tokens with a prefix of our own and a checksum (api/platform/auth/oauth-token.ts).
  for (const [model, prefix] of [
    [provider.AccessToken.prototype, OAUTH_TOKEN_PREFIXES.AccessToken],
    [provider.RefreshToken.prototype, OAUTH_TOKEN_PREFIXES.RefreshToken],
  ] as const) {
    override(
      model,
      "generateTokenId",
      (original) =>
        function generateTokenId(this: object) {
          return prefixedToken(prefix, String(Reflect.apply(original, this, [])));
        },
    );
  }
  // A client's secret is stored as its SHA-256 (adapter.ts): compared as one, in constant time.
  override(
    provider.Client.prototype,
    "compareClientSecret",
    () =>
      function compareClientSecret(this: { clientSecret?: string }, actual: unknown) {
        const stored = this.clientSecret;
        if (typeof stored !== "string" || typeof actual !== "string" || !stored.startsWith(HASHED_SECRET_PREFIX))
          return false;
        const expected = Buffer.from(stored.slice(HASHED_SECRET_PREFIX.length), "base64url");
        return sameHash(hashToken(actual), expected);
      },
  );
  // RFC 8252 §7.3 for every client, not only those registered as native: a loopback redirect on any port.
  override(
    provider.Client.prototype,
    "redirectUriAllowed",
    () =>
      function redirectUriAllowed(this: { redirectUris: string[] }, value: unknown) {
        return typeof value === "string" && redirectMatches(value, this.redirectUris);
      },
  );
  return provider;
}
