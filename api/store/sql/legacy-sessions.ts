import type { Sql } from "../../db/sql.ts";
import { addSealedStatement } from "../../mail/outbox-sql.ts";
import type { LookupKeys } from "../../platform/credentials/lookup-keys.ts";

const MARK = "legacy:";

/**
 * The store's half of migration 0005's second step: each order's checkout session id that the
 * migration marked `legacy:` becomes its keyed hash, and a delivery e-mail of that order still
 * waiting to be sent gets the id sealed for its purchase-page link. One batch per order,
 * conditional on the mark, so instances that do it at once do each order once. Answers how many
 * orders it rewrote; the keys are loaded only when there is one.
 */
export async function hashLegacySessionIds(sql: Sql, keys: () => Promise<LookupKeys>): Promise<number> {
  const { rows } = await sql.execute(`SELECT id, session_hash FROM store_orders WHERE session_hash LIKE '${MARK}%'`);
  if (rows.length === 0) return 0;
  const lookup = await keys();
  for (const row of rows) {
    const [orderId, marked] = [String(row.id), String(row.session_hash)];
    const sessionId = marked.slice(MARK.length);
    const stillMarked = {
      sql: "EXISTS (SELECT 1 FROM store_orders WHERE id = ? AND session_hash = ?)",
      args: [orderId, marked],
    };
    await sql.batch(
      [
        addSealedStatement(
          "store-delivery",
          { key: "order_id", equals: orderId },
          "session",
          lookup.seal(sessionId),
          stillMarked,
        ),
        {
          sql: "UPDATE store_orders SET session_hash = ? WHERE id = ? AND session_hash = ?",
          args: [lookup.hash("checkout-session", sessionId), orderId, marked],
        },
      ],
      "write",
    );
  }
  return rows.length;
}
