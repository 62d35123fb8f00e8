import { bytesOf, type Row, type Sql } from "../db/sql.ts";
import type { Agent, TokenOwner, Trust } from "../platform/auth/token-owner.ts";

export interface NewToken {
  id: string;
  hash: Uint8Array;
  hint: string;
  scopes: string[];
  label: string | null;
  createdAt: string;
}

function toAgent(row: Row, prefix = ""): Agent {
  return {
    id: String(row[`${prefix}id`]),
    agent_name: String(row.agent_name),
    agent_type: String(row.agent_type),
    operator_type: String(row.operator_type),
    principal_contact: row.principal_contact === null ? null : String(row.principal_contact),
    trust: String(row.trust) as Trust,
    registered_by: String(row.registered_by) as Agent["registered_by"],
    created_at: String(row.created_at),
  };
}

const insertTokenSql =
  "INSERT INTO agent_tokens (id, agent_id, token_hash, hint, scopes, label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
const tokenArgs = (agentId: string, token: NewToken) => [
  token.id,
  agentId,
  token.hash,
  token.hint,
  JSON.stringify(token.scopes),
  token.label,
  token.createdAt,
];

const insertAgentSql =
  "INSERT INTO agents (id, agent_name, agent_type, operator_type, principal_contact, trust, registered_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
const agentArgs = (agent: Agent) => [
  agent.id,
  agent.agent_name,
  agent.agent_type,
  agent.operator_type,
  agent.principal_contact,
  agent.trust,
  agent.registered_by,
  agent.created_at,
];

/** A registration without a token of its own: one made on the OAuth consent page acts through its grants. */
export async function insertAgent(client: Sql, agent: Agent): Promise<void> {
  await client.execute({ sql: insertAgentSql, args: agentArgs(agent) });
}

/** The agent and its first token, together or not at all. */
export async function insertAgentWithToken(client: Sql, agent: Agent, token: NewToken): Promise<void> {
  await client.batch(
    [
      { sql: insertAgentSql, args: agentArgs(agent) },
      { sql: insertTokenSql, args: tokenArgs(agent.id, token) },
    ],
    "write",
  );
}

export async function insertToken(client: Sql, agentId: string, token: NewToken): Promise<void> {
  await client.execute({ sql: insertTokenSql, args: tokenArgs(agentId, token) });
}

/** A registration's standing beside a token: what every owner lookup reads with the token's own row. */
const STANDING_COLUMNS = `a.id AS agent_id, a.agent_name, a.agent_type, a.operator_type, a.principal_contact, a.trust, a.registered_by, a.created_at,
                 w.joined_at, s.answered_at, s.survey_version,
                 (SELECT epoch FROM agent_standing_epoch WHERE id = 1) AS standing_epoch`;
const STANDING_JOINS = `LEFT JOIN agent_waitlist_entries w ON w.agent_id = a.id
            LEFT JOIN agent_survey_answers s ON s.agent_id = a.id`;

function standingOf(row: Row) {
  return {
    agent: toAgent(row, "agent_"),
    waitlistJoinedAt: row.joined_at === null ? null : String(row.joined_at),
    surveyAnsweredAt: row.answered_at === null ? null : String(row.answered_at),
    surveyVersion: row.survey_version === null ? null : String(row.survey_version),
    standingEpoch: Number(row.standing_epoch),
  };
}

/** The token's owner and standing, in one indexed lookup. */
export async function findTokenOwner(client: Sql, hash: Uint8Array): Promise<TokenOwner | null> {
  const row = await client.queryOne({
    sql: `SELECT t.id AS token_id, t.token_hash, t.scopes, t.revoked_at, ${STANDING_COLUMNS}
            FROM agent_tokens t
            JOIN agents a ON a.id = t.agent_id
            ${STANDING_JOINS}
           WHERE t.token_hash = ?`,
    args: [hash],
  });
  if (!row) return null;
  return {
    tokenId: String(row.token_id),
    tokenHash: bytesOf(row.token_hash),
    scopes: JSON.parse(String(row.scopes)) as string[],
    revoked: row.revoked_at !== null,
    ...standingOf(row),
  };
}

/**
 * The owner of an OAuth access token (the oauth feature's records, migration 0008, keyed by the
 * token's SHA-256): the registration it acts for, with the token's audience, scopes and expiry, read
 * like an agent token's so the same checks apply.
 */
export async function findOAuthTokenOwner(client: Sql, hash: Uint8Array): Promise<TokenOwner | null> {
  const row = await client.queryOne({
    sql: `SELECT o.id_hash, o.grant_id, o.client_id, o.expires_at, o.revoked_at,
                 json_extract(o.payload, '$.aud') AS audience, json_extract(o.payload, '$.scope') AS scope,
                 ${STANDING_COLUMNS}
            FROM oauth_records o
            JOIN agents a ON a.id = o.account_id
            ${STANDING_JOINS}
           WHERE o.model = 'AccessToken' AND o.id_hash = ?`,
    args: [hash],
  });
  if (!row) return null;
  const scope = row.scope === null ? "" : String(row.scope);
  return {
    tokenId: `grant:${String(row.grant_id)}`,
    tokenHash: bytesOf(row.id_hash),
    scopes: scope === "" ? [] : scope.split(" "),
    revoked: row.revoked_at !== null,
    audience: String(row.audience),
    expiresAt: Number(row.expires_at) * 1000,
    clientId: String(row.client_id),
    ...standingOf(row),
  };
}

/** The agents' standing epoch now: one single-row read (api/platform/auth/standing-epoch.ts). */
export async function readStandingEpoch(client: Sql): Promise<number> {
  const row = await client.queryOne("SELECT epoch FROM agent_standing_epoch WHERE id = 1");
  return Number(row?.epoch ?? 0);
}

export async function findAgent(client: Sql, id: string): Promise<Agent | null> {
  const result = await client.execute({ sql: "SELECT * FROM agents WHERE id = ?", args: [id] });
  const row = result.rows[0];
  return row ? toAgent(row) : null;
}

export async function listAgents(client: Sql, limit: number): Promise<Agent[]> {
  const result = await client.execute({ sql: "SELECT * FROM agents ORDER BY created_at DESC LIMIT ?", args: [limit] });
  return result.rows.map((row) => toAgent(row));
}

export async function setTrust(client: Sql, agentId: string, trust: Trust): Promise<boolean> {
  const result = await client.execute({ sql: "UPDATE agents SET trust = ? WHERE id = ?", args: [trust, agentId] });
  return result.rowsAffected === 1;
}

export interface TokenListing {
  id: string;
  agent_id: string;
  agent_name: string;
  hint: string;
  scopes: string[];
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** Tokens without their secrets: only the id, the last four characters, scopes and dates. */
export async function listTokens(client: Sql, agentId?: string): Promise<TokenListing[]> {
  const result = await client.execute({
    sql: `SELECT t.id, t.agent_id, a.agent_name, t.hint, t.scopes, t.label, t.created_at, t.revoked_at
            FROM agent_tokens t JOIN agents a ON a.id = t.agent_id
           ${agentId ? "WHERE t.agent_id = ?" : ""} ORDER BY t.created_at DESC`,
    args: agentId ? [agentId] : [],
  });
  return result.rows.map((row) => ({
    id: String(row.id),
    agent_id: String(row.agent_id),
    agent_name: String(row.agent_name),
    hint: String(row.hint),
    scopes: JSON.parse(String(row.scopes)) as string[],
    label: row.label === null ? null : String(row.label),
    created_at: String(row.created_at),
    revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
  }));
}

export async function revokeToken(client: Sql, tokenId: string, at: string): Promise<boolean> {
  const result = await client.execute({
    sql: "UPDATE agent_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
    args: [at, tokenId],
  });
  return result.rowsAffected === 1;
}
