import type { Row, Sql, SqlStatement } from "../../db/sql.ts";

/** What the buyer sees of a purchase; see content/docs/store.md "Delivery states". */
export const DELIVERY_STATES = ["pending", "fulfilled", "failed", "expired", "revoked", "refunded"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export interface NewOrder {
  id: string;
  /** The keyed hash of the checkout session id (`LookupKeys.hash("checkout-session", …)`): the id itself is a credential. */
  session_hash: string;
  product_id: string;
  quantity: number;
  amount: number;
  currency: string;
  email: string | null;
  checkout_status: string;
  payment_status: string;
  payment_intent_id: string | null;
  expires_at: string;
  created_at: string;
}

export interface OrderRow extends NewOrder {
  state: DeliveryState;
  updated_at: string;
}

export interface EntitlementRow {
  id: string;
  order_id: string;
  product_id: string;
  email: string | null;
  granted_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoke_reason: "refund" | "dispute" | "staff" | null;
}

/** An order with what became of it: its entitlement and, for a sold-out one, its refund. */
export interface OrderRecord extends OrderRow {
  entitlement: EntitlementRow | null;
  outcome: "granted" | "sold-out" | null;
  refund_id: string | null;
}

const text = (value: unknown): string => String(value);
const textOrNull = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));

function isDeliveryState(value: string): value is DeliveryState {
  return (DELIVERY_STATES as readonly string[]).includes(value);
}

export function toEntitlement(row: Row, prefix = ""): EntitlementRow {
  const reason = textOrNull(row[`${prefix}revoke_reason`]);
  return {
    id: text(row[`${prefix}id`]),
    order_id: text(row[`${prefix}order_id`]),
    product_id: text(row[`${prefix}product_id`]),
    email: textOrNull(row[`${prefix}email`]),
    granted_at: text(row[`${prefix}granted_at`]),
    expires_at: text(row[`${prefix}expires_at`]),
    revoked_at: textOrNull(row[`${prefix}revoked_at`]),
    revoke_reason: reason === "refund" || reason === "dispute" || reason === "staff" ? reason : null,
  };
}

function toOrderRecord(row: Row): OrderRecord {
  const state = text(row.state);
  const outcome = textOrNull(row.outcome);
  return {
    id: text(row.id),
    session_hash: text(row.session_hash),
    product_id: text(row.product_id),
    quantity: Number(row.quantity),
    amount: Number(row.amount),
    currency: text(row.currency),
    email: textOrNull(row.email),
    state: isDeliveryState(state) ? state : "pending",
    checkout_status: text(row.checkout_status),
    payment_status: text(row.payment_status),
    payment_intent_id: textOrNull(row.payment_intent_id),
    expires_at: text(row.expires_at),
    created_at: text(row.created_at),
    updated_at: text(row.updated_at),
    entitlement: row.e_id === null || row.e_id === undefined ? null : toEntitlement(row, "e_"),
    outcome: outcome === "granted" || outcome === "sold-out" ? outcome : null,
    refund_id: textOrNull(row.refund_id),
  };
}

const ORDER_RECORD = `SELECT o.*, f.outcome, f.refund_id,
    e.id AS e_id, e.order_id AS e_order_id, e.product_id AS e_product_id, e.email AS e_email, e.granted_at AS e_granted_at,
    e.expires_at AS e_expires_at, e.revoked_at AS e_revoked_at, e.revoke_reason AS e_revoke_reason
  FROM store_orders o
  LEFT JOIN store_fulfilments f ON f.order_id = o.id
  LEFT JOIN store_entitlements e ON e.order_id = o.id`;

/** Records a new order; does nothing when it is already there (the fulfilment may have written it first). */
export function insertOrderStatement(order: NewOrder): SqlStatement {
  return {
    sql: `INSERT INTO store_orders (id, session_hash, product_id, quantity, amount, currency, email, state, checkout_status, payment_status, payment_intent_id, expires_at, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    args: [
      order.id,
      order.session_hash,
      order.product_id,
      order.quantity,
      order.amount,
      order.currency,
      order.email,
      order.checkout_status,
      order.payment_status,
      order.payment_intent_id,
      order.expires_at,
      order.created_at,
      order.created_at,
    ],
  };
}

export async function insertOrder(sql: Sql, order: NewOrder): Promise<void> {
  await sql.execute(insertOrderStatement(order));
}

/** The order of a checkout session, by the session id's keyed hash. */
export async function findOrderBySession(sql: Sql, sessionHash: string): Promise<OrderRecord | undefined> {
  const row = await sql.queryOne({ sql: `${ORDER_RECORD} WHERE o.session_hash = ?`, args: [sessionHash] });
  return row ? toOrderRecord(row) : undefined;
}

export async function findOrder(sql: Sql, orderId: string): Promise<OrderRecord | undefined> {
  const row = await sql.queryOne({ sql: `${ORDER_RECORD} WHERE o.id = ?`, args: [orderId] });
  return row ? toOrderRecord(row) : undefined;
}

export async function findOrderIdByPaymentIntent(sql: Sql, paymentIntentId: string): Promise<string | undefined> {
  const row = await sql.queryOne({
    sql: "SELECT id FROM store_orders WHERE payment_intent_id = ?",
    args: [paymentIntentId],
  });
  return row ? text(row.id) : undefined;
}

export async function listOrders(sql: Sql, options: { state?: DeliveryState; limit: number }): Promise<OrderRecord[]> {
  const where = options.state ? "WHERE o.state = ?" : "";
  const result = await sql.execute({
    sql: `${ORDER_RECORD} ${where} ORDER BY o.created_at DESC LIMIT ?`,
    args: options.state ? [options.state, options.limit] : [options.limit],
  });
  return result.rows.map(toOrderRecord);
}

/**
 * A pending order whose payment failed or whose session expired. Only `pending` moves: a paid
 * order never goes back, whatever order the events arrive in.
 */
export function settleUnpaidOrderStatement(
  sessionHash: string,
  state: "failed" | "expired",
  checkoutStatus: string,
  paymentStatus: string,
  at: string,
): SqlStatement {
  return {
    sql: "UPDATE store_orders SET state = ?, checkout_status = ?, payment_status = ?, updated_at = ? WHERE session_hash = ? AND state = 'pending'",
    args: [state, checkoutStatus, paymentStatus, at, sessionHash],
  };
}
