import type { Row, Sql } from "../../db/sql.ts";

/** One record of one of oidc-provider's models, as the adapter stores it (migration 0008). */
export interface OAuthRecord {
  model: string;
  idHash: Uint8Array;
  payload: string;
  grantId: string | null;
  sessionUid: string | null;
  userCodeHash: Uint8Array | null;
  accountId: string | null;
  clientId: string | null;
  /** Unix seconds, or null when it does not expire. */
  expiresAt: number | null;
  createdAt: number;
}

export interface StoredRecord {
  payload: string;
  consumedAt: number | null;
}

/** Inserts or replaces a record, keeping when it was consumed or revoked (a save never undoes either). */
export async function upsertRecord(client: Sql, record: OAuthRecord): Promise<void> {
  await client.execute({
    sql: `INSERT INTO oauth_records
            (model, id_hash, payload, grant_id, session_uid, user_code_hash, account_id, client_id, expires_at, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (model, id_hash) DO UPDATE SET
            payload = excluded.payload, grant_id = excluded.grant_id, session_uid = excluded.session_uid,
            user_code_hash = excluded.user_code_hash, account_id = excluded.account_id,
            client_id = excluded.client_id, expires_at = excluded.expires_at`,
    args: [
      record.model,
      record.idHash,
      record.payload,
      record.grantId,
      record.sessionUid,
      record.userCodeHash,
      record.accountId,
      record.clientId,
      record.expiresAt,
      record.createdAt,
    ],
  });
}

function toStored(row: Row | undefined): StoredRecord | null {
  if (!row) return null;
  return { payload: String(row.payload), consumedAt: row.consumed_at === null ? null : Number(row.consumed_at) };
}

const LIVE = "revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)";

/** A record that is neither revoked nor expired at `now` (Unix seconds), by one indexed column. */
export async function findRecord(
  client: Sql,
  model: string,
  by: { column: "id_hash" | "session_uid" | "user_code_hash"; value: Uint8Array | string },
  now: number,
): Promise<StoredRecord | null> {
  return toStored(
    await client.queryOne({
      sql: `SELECT payload, consumed_at FROM oauth_records WHERE model = ? AND ${by.column} = ? AND ${LIVE}`,
      args: [model, by.value, now],
    }),
  );
}

export async function consumeRecord(client: Sql, model: string, idHash: Uint8Array, now: number): Promise<void> {
  await client.execute({
    sql: "UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id_hash = ? AND consumed_at IS NULL",
    args: [now, model, idHash],
  });
}

/**
 * Tokens and codes are marked revoked, not deleted: the resource server can then say a token was
 * revoked rather than unknown, and the row's trigger tells every instance (migration 0008). Other
 * records go. A grant takes the consents remembered for it along.
 */
export async function destroyRecord(
  client: Sql,
  model: string,
  idHash: Uint8Array,
  now: number,
  keepRevoked: boolean,
): Promise<void> {
  if (keepRevoked) {
    await client.execute({
      sql: "UPDATE oauth_records SET revoked_at = ? WHERE model = ? AND id_hash = ? AND revoked_at IS NULL",
      args: [now, model, idHash],
    });
    return;
  }
  if (model !== "Grant") {
    await client.execute({ sql: "DELETE FROM oauth_records WHERE model = ? AND id_hash = ?", args: [model, idHash] });
    return;
  }
  const grant = await client.queryOne({
    sql: "SELECT grant_id FROM oauth_records WHERE model = 'Grant' AND id_hash = ?",
    args: [idHash],
  });
  await client.batch(
    [
      { sql: "DELETE FROM oauth_records WHERE model = 'Grant' AND id_hash = ?", args: [idHash] },
      { sql: "DELETE FROM oauth_consents WHERE grant_id = ?", args: [grant ? String(grant.grant_id) : ""] },
    ],
    "write",
  );
}

/** Revokes every record of a model that a grant issued (a replayed code or refresh token, a revoked grant). */
export async function revokeRecordsOfGrant(client: Sql, model: string, grantId: string, now: number): Promise<void> {
  await client.execute({
    sql: "UPDATE oauth_records SET revoked_at = ? WHERE model = ? AND grant_id = ? AND revoked_at IS NULL",
    args: [now, model, grantId],
  });
}

/** Deletes what expired more than `graceSeconds` ago; returns how many records went. */
export async function purgeExpiredRecords(client: Sql, now: number, graceSeconds: number): Promise<number> {
  const result = await client.execute({
    sql: "DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < ?",
    args: [now - graceSeconds],
  });
  return result.rowsAffected;
}
