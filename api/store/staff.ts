import type { Sql } from "../db/sql.ts";
import { queueMailStatement } from "../mail/outbox-sql.ts";
import { randomBase62 } from "../platform/auth/agent-token.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { isEntitlementActive } from "./sql/entitlements.ts";
import { deliveryMailKey, deliveryPayload } from "./sql/fulfilments.ts";
import { findOrder, findOrderBySession, type OrderRecord } from "./sql/orders.ts";

/** An order by its id (`ord_…`) or its checkout session id (`cs_…`, found by its keyed hash). */
export async function findOrderByReference(
  sql: Sql,
  keys: LookupKeys,
  reference: string,
): Promise<OrderRecord | undefined> {
  return reference.startsWith("cs_")
    ? findOrderBySession(sql, keys.hash("checkout-session", reference))
    : findOrder(sql, reference);
}

export type ResendOutcome = { ok: true; mailId: string; recipient: string } | { ok: false; reason: string };

/**
 * Queues the delivery e-mail again (a buyer lost it, or its link expired): a new outbox row with a
 * fresh 7-day link when sent. Each resend is deliberate, so each gets its own dedupe key. The
 * database does not keep the checkout session id, so the e-mail links the purchase page only when
 * staff named the order by it (`sealedSession`).
 */
export async function resendDeliveryMail(
  sql: Sql,
  order: OrderRecord,
  recipient: string | null,
  now: Date,
  sealedSession: string | null = null,
): Promise<ResendOutcome> {
  const to = recipient ?? order.email;
  if (!order.entitlement)
    return { ok: false, reason: `Order ${order.id} has no entitlement (delivery state ${order.state}).` };
  if (!isEntitlementActive(order.entitlement, now))
    return { ok: false, reason: `The entitlement ${order.entitlement.id} has ended; extend or restore it first.` };
  if (!to) return { ok: false, reason: `Order ${order.id} has no e-mail address; pass --to.` };
  const at = now.toISOString();
  const mailId = `mail_${randomBase62(20)}`;
  await sql.execute(
    queueMailStatement(
      {
        id: mailId,
        kind: "store-delivery",
        dedupe_key: `${deliveryMailKey(order.id)}:resend:${at}`,
        recipient: to,
        payload: deliveryPayload(order, order.entitlement.id, sealedSession),
      },
      at,
    ),
  );
  return { ok: true, mailId, recipient: to };
}
