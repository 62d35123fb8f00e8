import type { Sql } from "../../db/sql.ts";
import { type EntitlementRow, toEntitlement } from "./orders.ts";

export async function findEntitlement(sql: Sql, id: string): Promise<EntitlementRow | undefined> {
  const row = await sql.queryOne({ sql: "SELECT * FROM store_entitlements WHERE id = ?", args: [id] });
  return row ? toEntitlement(row) : undefined;
}

/** Active means neither revoked nor past its end; the end is exclusive. */
export function isEntitlementActive(entitlement: EntitlementRow, now: Date): boolean {
  return entitlement.revoked_at === null && Date.parse(entitlement.expires_at) > now.getTime();
}

/**
 * Staff give more time: `days` after the later of the current end and now, in one statement.
 * SQLite's date arithmetic keeps the ISO form with milliseconds (`%f` is SS.SSS).
 */
export async function extendEntitlement(
  sql: Sql,
  id: string,
  days: number,
  now: string,
): Promise<EntitlementRow | undefined> {
  const result = await sql.execute({
    sql: `UPDATE store_entitlements SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', MAX(expires_at, ?), ?) WHERE id = ? RETURNING *`,
    args: [now, `+${days} days`, id],
  });
  const row = result.rows[0];
  return row ? toEntitlement(row) : undefined;
}

/** Staff end an entitlement now; `false` when it does not exist or was already revoked. */
export async function revokeEntitlementByStaff(sql: Sql, id: string, at: string): Promise<boolean> {
  const results = await sql.batch([
    {
      sql: "UPDATE store_entitlements SET revoked_at = ?, revoke_reason = 'staff' WHERE id = ? AND revoked_at IS NULL",
      args: [at, id],
    },
    {
      sql: "UPDATE store_orders SET state = 'revoked', updated_at = ? WHERE id = (SELECT order_id FROM store_entitlements WHERE id = ?) AND state = 'fulfilled'",
      args: [at, id],
    },
  ]);
  return (results[0]?.rowsAffected ?? 0) > 0;
}

/**
 * Staff give a revoked entitlement back (a dispute decided in the buyer's favour, see the refund
 * policy); its end date is unchanged.
 */
export async function restoreEntitlement(sql: Sql, id: string, at: string): Promise<boolean> {
  const results = await sql.batch([
    {
      sql: "UPDATE store_entitlements SET revoked_at = NULL, revoke_reason = NULL WHERE id = ? AND revoked_at IS NOT NULL",
      args: [id],
    },
    {
      sql: "UPDATE store_orders SET state = 'fulfilled', updated_at = ? WHERE id = (SELECT order_id FROM store_entitlements WHERE id = ?) AND state = 'revoked'",
      args: [at, id],
    },
  ]);
  return (results[0]?.rowsAffected ?? 0) > 0;
}
