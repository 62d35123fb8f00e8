import { createHash } from "node:crypto";
import type { Configuration } from "oidc-provider";
import type { Sql } from "../../db/sql.ts";

/** What a person allowed on the consent page, for one registration, client, redirect URI and resource. */
export interface RememberedConsent {
  agentId: string;
  clientId: string;
  redirectUri: string;
  resource: string;
  scopes: readonly string[];
  /** The client's redirect URIs when consent was given (`redirectsDigest`). */
  clientRedirectsDigest: string;
  grantId: string;
  createdAt: string;
}

/** A client's registered redirect URIs, order aside: a client ID metadata document that changes them is asked again. */
export function redirectsDigest(uris: readonly string[]): string {
  return createHash("sha256")
    .update(JSON.stringify([...uris].sort()))
    .digest("base64url");
}

export async function rememberConsent(client: Sql, consent: RememberedConsent): Promise<void> {
  await client.execute({
    sql: `INSERT INTO oauth_consents
            (agent_id, client_id, redirect_uri, resource, scopes, client_redirects_digest, grant_id, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (agent_id, client_id, redirect_uri, resource) DO UPDATE SET
            scopes = excluded.scopes, client_redirects_digest = excluded.client_redirects_digest,
            grant_id = excluded.grant_id, created_at = excluded.created_at`,
    args: [
      consent.agentId,
      consent.clientId,
      consent.redirectUri,
      consent.resource,
      [...consent.scopes].sort().join(" "),
      consent.clientRedirectsDigest,
      consent.grantId,
      consent.createdAt,
    ],
  });
}

async function findConsent(
  client: Sql,
  key: Pick<RememberedConsent, "agentId" | "clientId" | "redirectUri" | "resource">,
): Promise<{ scopes: string[]; digest: string; grantId: string } | null> {
  const row = await client.queryOne({
    sql: `SELECT scopes, client_redirects_digest, grant_id FROM oauth_consents
           WHERE agent_id = ? AND client_id = ? AND redirect_uri = ? AND resource = ?`,
    args: [key.agentId, key.clientId, key.redirectUri, key.resource],
  });
  if (!row) return null;
  const scopes = String(row.scopes);
  return {
    scopes: scopes === "" ? [] : scopes.split(" "),
    digest: String(row.client_redirects_digest),
    grantId: String(row.grant_id),
  };
}

/**
 * The library's `loadExistingGrant`: which grant may answer an authorization request without a page.
 * The grant an interaction just made, else the one remembered for this browser's registration, this
 * client, this redirect URI and this resource, as long as the client's redirect URIs are still the
 * ones consented to. A request for more scopes than were allowed then still reaches the consent page
 * (the library compares the grant's scopes with the request's).
 */
export function loadRememberedGrant(db: () => Sql): NonNullable<Configuration["loadExistingGrant"]> {
  return async (ctx) => {
    const { oidc } = ctx;
    const made = oidc.result?.consent?.grantId;
    if (typeof made === "string") return oidc.provider.Grant.find(made);
    const agentId = oidc.session?.accountId;
    const client = oidc.client;
    const { redirect_uri: redirectUri, resource } = oidc.params ?? {};
    if (!agentId || !client || typeof redirectUri !== "string" || typeof resource !== "string") return undefined;
    const found = await findConsent(db(), { agentId, clientId: client.clientId, redirectUri, resource });
    if (!found || found.digest !== redirectsDigest(client.redirectUris ?? [])) return undefined;
    return oidc.provider.Grant.find(found.grantId);
  };
}
