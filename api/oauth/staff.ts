import type { Sql, SqlValue } from "../db/sql.ts";

/** Which grants a staff command is about: one client's, one registration's, or one grant. */
export interface GrantFilter {
  clientId?: string;
  agentId?: string;
  grantId?: string;
}

/** A grant as staff see it: never a token, only what it is for and how much of it is alive. */
export interface GrantListing {
  grant_id: string;
  client_id: string;
  client_name: string | null;
  agent_id: string;
  agent_name: string | null;
  scopes: string[];
  created_at: string;
  expires_at: string | null;
  live_tokens: number;
}

const COLUMNS: Record<keyof GrantFilter, string> = {
  clientId: "client_id",
  agentId: "account_id",
  grantId: "grant_id",
};

/** The filter as a WHERE clause over records' own columns (every token row names its grant, client and registration). */
function where(filter: GrantFilter, alias = ""): { sql: string; args: SqlValue[] } {
  const parts = (Object.keys(COLUMNS) as (keyof GrantFilter)[]).flatMap((key) => {
    const value = filter[key];
    return value === undefined ? [] : [{ sql: `${alias}${COLUMNS[key]} = ?`, arg: value }];
  });
  return { sql: parts.map((part) => part.sql).join(" AND ") || "1 = 1", args: parts.map((part) => part.arg) };
}

const iso = (seconds: unknown) => (seconds === null ? null : new Date(Number(seconds) * 1000).toISOString());

/** Grants newest first, with their client's name (a dynamically registered client's own) and their live tokens. */
export async function listGrants(client: Sql, filter: GrantFilter, now: number): Promise<GrantListing[]> {
  const { sql, args } = where(filter, "g.");
  const result = await client.execute({
    sql: `SELECT g.grant_id, g.client_id, g.account_id, g.created_at, g.expires_at, g.payload, a.agent_name,
                 (SELECT json_extract(c.payload, '$.client_name') FROM oauth_records c
                   WHERE c.model = 'Client' AND c.client_id = g.client_id) AS client_name,
                 (SELECT COUNT(*) FROM oauth_records t
                   WHERE t.grant_id = g.grant_id AND t.model IN ('AccessToken', 'RefreshToken')
                     AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > ?)) AS live_tokens
            FROM oauth_records g LEFT JOIN agents a ON a.id = g.account_id
           WHERE g.model = 'Grant' AND ${sql}
           ORDER BY g.created_at DESC`,
    args: [now, ...args],
  });
  return result.rows.map((row) => {
    const payload = JSON.parse(String(row.payload)) as { resources?: Record<string, string> };
    const scopes = Object.entries(payload.resources ?? {}).map(([resource, scope]) => `${resource}: ${scope}`);
    return {
      grant_id: String(row.grant_id),
      client_id: String(row.client_id),
      client_name: row.client_name === null ? null : String(row.client_name),
      agent_id: String(row.account_id),
      agent_name: row.agent_name === null ? null : String(row.agent_name),
      scopes,
      created_at: String(iso(row.created_at)),
      expires_at: iso(row.expires_at),
      live_tokens: Number(row.live_tokens),
    };
  });
}

/**
 * Revokes the matching grants: every token and code they issued is marked revoked (which moves the
 * standing epoch, so every instance refuses them from its next request), the grants and their
 * remembered consents go, so the client has to ask a person again.
 */
export async function revokeGrants(
  client: Sql,
  filter: GrantFilter,
  now: number,
): Promise<{ grants: number; tokens: number }> {
  if (Object.values(filter).every((value) => value === undefined)) throw new Error("revokeGrants needs a filter");
  const { sql, args } = where(filter);
  const [grants, tokens] = await client.batch(
    [
      { sql: `SELECT COUNT(*) AS n FROM oauth_records WHERE model = 'Grant' AND ${sql}`, args },
      {
        sql: `UPDATE oauth_records SET revoked_at = ? WHERE model <> 'Grant' AND grant_id IS NOT NULL AND revoked_at IS NULL AND ${sql}`,
        args: [now, ...args],
      },
      {
        sql: `DELETE FROM oauth_consents WHERE grant_id IN (SELECT grant_id FROM oauth_records WHERE model = 'Grant' AND ${sql})`,
        args,
      },
      { sql: `DELETE FROM oauth_records WHERE model = 'Grant' AND ${sql}`, args },
    ],
    "write",
  );
  return { grants: Number(grants?.rows[0]?.n ?? 0), tokens: tokens?.rowsAffected ?? 0 };
}
