import type { Sql, SqlStatement } from "../../db/sql.ts";
import { cancelQueuedMailStatement, queueMailStatement, SEALED } from "../../mail/outbox-sql.ts";
import { insertOrderStatement, type NewOrder } from "./orders.ts";

export interface FulfilmentPlan {
  order: NewOrder;
  /** Names this call: only the call whose attempt is recorded acts (see store_fulfilments). */
  attempt: string;
  /** Units put on sale, or `null` when not limited. */
  stockLimit: number | null;
  entitlementId: string;
  entitlementExpiresAt: string;
  /** Where the delivery e-mail goes; no e-mail without one. */
  email: string | null;
  /** The checkout session id sealed (`LookupKeys.seal`), for the delivery e-mail's purchase-page link. */
  sealedSession: string;
  deliveryMailId: string;
  refundMailId: string;
  at: string;
}

export const deliveryMailKey = (orderId: string) => `store-delivery:${orderId}`;

/**
 * What a delivery e-mail's outbox row holds: ids, and the purchase page's session id sealed under
 * `SEALED` (the outbox drops it once the message is sent or cancelled). No session, no link to
 * the purchase page: the e-mail still carries its download link.
 */
export function deliveryPayload(
  order: { id: string; product_id: string },
  entitlementId: string,
  sealedSession: string | null,
): Record<string, unknown> {
  return {
    order_id: order.id,
    entitlement_id: entitlementId,
    product_id: order.product_id,
    ...(sealedSession ? { [SEALED]: { session: sealedSession } } : {}),
  };
}
export const refundMailKey = (orderId: string) => `store-sold-out-refund:${orderId}`;

/**
 * The whole fulfilment as one batch (one write transaction): record the order, decide once (the
 * primary key of store_fulfilments), take the unit with a conditional update, grant the
 * entitlement, set the delivery state and queue the e-mail. Repeats and concurrent calls (webhook
 * and lookup, several instances) are no-ops after the first: every effect requires this call's
 * `attempt` to be the recorded one. A refund or dispute recorded before the fulfilment (events
 * arrive in any order) grants the entitlement already revoked and sends nothing.
 */
export function fulfilmentStatements(plan: FulfilmentPlan): SqlStatement[] {
  const { order, attempt, at } = plan;
  const won = "EXISTS (SELECT 1 FROM store_fulfilments WHERE order_id = ? AND attempt = ? AND outcome = ?)";
  const statements: SqlStatement[] = [insertOrderStatement(order)];
  if (plan.stockLimit !== null) {
    statements.push({
      sql: "INSERT INTO store_stock (product_id, sold) VALUES (?, 0) ON CONFLICT (product_id) DO NOTHING",
      args: [order.product_id],
    });
  }
  statements.push(
    {
      sql: `INSERT INTO store_fulfilments (order_id, attempt, outcome, decided_at)
            SELECT ?, ?, CASE WHEN ? IS NULL OR COALESCE((SELECT sold FROM store_stock WHERE product_id = ?), 0) + ? <= ? THEN 'granted' ELSE 'sold-out' END, ?
            WHERE true
            ON CONFLICT (order_id) DO NOTHING`,
      args: [order.id, attempt, plan.stockLimit, order.product_id, order.quantity, plan.stockLimit, at],
    },
    {
      sql: `UPDATE store_stock SET sold = sold + ? WHERE product_id = ? AND ${won}`,
      args: [order.quantity, order.product_id, order.id, attempt, "granted"],
    },
    {
      sql: `INSERT INTO store_entitlements (id, order_id, product_id, email, granted_at, expires_at, revoked_at, revoke_reason)
            SELECT ?, ?, ?, ?, ?, ?,
              (SELECT at FROM store_revocations WHERE order_id = ? ORDER BY at LIMIT 1),
              (SELECT reason FROM store_revocations WHERE order_id = ? ORDER BY at LIMIT 1)
            WHERE ${won}`,
      args: [
        plan.entitlementId,
        order.id,
        order.product_id,
        plan.email,
        at,
        plan.entitlementExpiresAt,
        order.id,
        order.id,
        order.id,
        attempt,
        "granted",
      ],
    },
    {
      sql: `UPDATE store_orders SET
              state = CASE
                WHEN (SELECT outcome FROM store_fulfilments WHERE order_id = ?) = 'sold-out' THEN 'refunded'
                WHEN EXISTS (SELECT 1 FROM store_revocations WHERE order_id = ?) THEN 'revoked'
                ELSE 'fulfilled' END,
              checkout_status = ?, payment_status = ?, payment_intent_id = COALESCE(?, payment_intent_id),
              email = COALESCE(email, ?), updated_at = ?
            WHERE id = ? AND EXISTS (SELECT 1 FROM store_fulfilments WHERE order_id = ? AND attempt = ?)`,
      args: [
        order.id,
        order.id,
        order.checkout_status,
        order.payment_status,
        order.payment_intent_id,
        plan.email,
        at,
        order.id,
        order.id,
        attempt,
      ],
    },
  );
  if (plan.email) {
    const payload = deliveryPayload(order, plan.entitlementId, plan.sealedSession);
    statements.push(
      queueMailStatement(
        {
          id: plan.deliveryMailId,
          kind: "store-delivery",
          dedupe_key: deliveryMailKey(order.id),
          recipient: plan.email,
          payload,
        },
        at,
        {
          sql: `${won} AND NOT EXISTS (SELECT 1 FROM store_revocations WHERE order_id = ?)`,
          args: [order.id, attempt, "granted", order.id],
        },
      ),
      queueMailStatement(
        {
          id: plan.refundMailId,
          kind: "store-sold-out-refund",
          dedupe_key: refundMailKey(order.id),
          recipient: plan.email,
          payload: { order_id: order.id, product_id: order.product_id },
        },
        at,
        {
          sql: won,
          args: [order.id, attempt, "sold-out"],
        },
      ),
    );
  }
  return statements;
}

/** Units of a limited product already sold (0 before the first sale). */
export async function unitsSold(sql: Sql, productId: string): Promise<number> {
  const row = await sql.queryOne({ sql: "SELECT sold FROM store_stock WHERE product_id = ?", args: [productId] });
  return Number(row?.sold ?? 0);
}

/**
 * A refund or a dispute of an order's payment: recorded (even before the fulfilment), the
 * entitlement revoked, the delivery state `revoked`, and a delivery e-mail still waiting cancelled.
 */
export function revocationStatements(
  orderId: string,
  reason: "refund" | "dispute",
  sourceRef: string,
  at: string,
): SqlStatement[] {
  return [
    {
      sql: "INSERT INTO store_revocations (order_id, reason, source_ref, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      args: [orderId, reason, sourceRef, at],
    },
    {
      sql: "UPDATE store_entitlements SET revoked_at = ?, revoke_reason = ? WHERE order_id = ? AND revoked_at IS NULL",
      args: [at, reason, orderId],
    },
    {
      sql: "UPDATE store_orders SET state = 'revoked', updated_at = ? WHERE id = ? AND state = 'fulfilled'",
      args: [at, orderId],
    },
    cancelQueuedMailStatement(
      deliveryMailKey(orderId),
      `the payment was ${reason === "refund" ? "refunded" : "disputed"} before the e-mail went`,
    ),
  ];
}

/** Sold-out orders whose automatic refund the provider has not yet accepted. */
export async function refundsDue(
  sql: Sql,
  limit: number,
): Promise<{ order_id: string; payment_intent_id: string | null }[]> {
  const result = await sql.execute({
    sql: `SELECT f.order_id, o.payment_intent_id FROM store_fulfilments f JOIN store_orders o ON o.id = f.order_id
          WHERE f.outcome = 'sold-out' AND f.refunded_at IS NULL ORDER BY f.decided_at LIMIT ?`,
    args: [limit],
  });
  return result.rows.map((row) => ({
    order_id: String(row.order_id),
    payment_intent_id: row.payment_intent_id === null ? null : String(row.payment_intent_id),
  }));
}

export async function recordAutomaticRefund(sql: Sql, orderId: string, refundId: string, at: string): Promise<void> {
  await sql.execute({
    sql: "UPDATE store_fulfilments SET refund_id = ?, refunded_at = ? WHERE order_id = ? AND refunded_at IS NULL",
    args: [refundId, at, orderId],
  });
}
