import type { Sql } from "../db/sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import { type CheckoutSession, StoreMetadataSchema } from "../payments/stripe-objects.ts";
import type { WebhookEffect } from "../payments/webhooks.ts";
import { randomBase62 } from "../platform/auth/agent-token.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import type { StoreCatalogue } from "./catalogue.ts";
import { fulfilmentStatements, recordAutomaticRefund, refundsDue } from "./sql/fulfilments.ts";
import { findOrder, type OrderRecord } from "./sql/orders.ts";

export interface StoreFulfilmentDeps {
  db: () => Sql;
  now: () => Date;
  catalogue: StoreCatalogue;
  payments: PaymentsGateway | null;
  keys: LookupKeys;
  log: Logger;
}

const DAY_MS = 86_400_000;

/** A session the provider reports as paid: the only kind that is ever fulfilled. */
export function isPaid(session: CheckoutSession): boolean {
  return session.payment_status === "paid" || session.payment_status === "no_payment_required";
}

/**
 * The one fulfilment function (https://docs.stripe.com/checkout/fulfillment): called by the
 * webhook and by the session lookup, always with a session just read from the provider, any
 * number of times, concurrently, on any instance; it fulfils once.
 *
 * Stock is taken at fulfilment, not at checkout. When two buyers pay for the last unit at once,
 * the first fulfilment takes it; the second is decided `sold-out` in the same statement, and its
 * payment is refunded in full through the provider (idempotency key per order) right after the
 * commit, or by `retryPendingRefunds` if the provider is down then.
 */
export class StoreFulfilment {
  private readonly deps: StoreFulfilmentDeps;

  constructor(deps: StoreFulfilmentDeps) {
    this.deps = deps;
  }

  /** The statements that fulfil a paid session, and the follow-up; `null` when it is not a store session. */
  plan(session: CheckoutSession): WebhookEffect | null {
    const metadata = StoreMetadataSchema.safeParse(session.metadata);
    if (!metadata.success || !isPaid(session)) return null;
    const product = this.deps.catalogue.any(metadata.data.product_id);
    if (!product) {
      this.deps.log.error(
        { order_id: metadata.data.order_id, product_id: metadata.data.product_id },
        "a paid order names a product that is no longer in the catalogue; fulfil it by hand",
      );
      return null;
    }
    const now = this.deps.now();
    const at = now.toISOString();
    const quantity = session.line_items?.data.reduce((sum, item) => sum + (item.quantity ?? 1), 0) || 1;
    const email = session.customer_details?.email ?? session.customer_email ?? null;
    const orderId = metadata.data.order_id;
    const statements = fulfilmentStatements({
      order: {
        id: orderId,
        session_hash: this.deps.keys.hash("checkout-session", session.id),
        product_id: product.id,
        quantity,
        amount: session.amount_total ?? product.data.price.amount * quantity,
        currency: session.currency ?? product.data.price.currency,
        email,
        checkout_status: session.status ?? "complete",
        payment_status: session.payment_status,
        payment_intent_id: session.payment_intent,
        expires_at: new Date(session.expires_at * 1000).toISOString(),
        created_at: at,
      },
      attempt: randomBase62(16),
      stockLimit: product.data.stock ?? null,
      entitlementId: `ent_${randomBase62(22)}`,
      entitlementExpiresAt: new Date(now.getTime() + product.data.entitlement_days * DAY_MS).toISOString(),
      email,
      // The delivery e-mail links the purchase page by the session id: sealed until it is sent.
      sealedSession: this.deps.keys.seal(session.id),
      deliveryMailId: `mail_${randomBase62(20)}`,
      refundMailId: `mail_${randomBase62(20)}`,
      at,
    });
    return { statements, afterCommit: () => this.#refundIfSoldOut(orderId) };
  }

  /** Fulfils a paid session now (the lookup's path); a no-op for one already fulfilled. */
  async fulfil(session: CheckoutSession): Promise<void> {
    const effect = this.plan(session);
    if (!effect) return;
    await this.deps.db().batch(effect.statements, "write");
    try {
      await effect.afterCommit?.();
    } catch (error) {
      this.deps.log.warn(
        { err: error instanceof Error ? error.message : String(error) },
        "automatic refund failed; it is retried later",
      );
    }
  }

  async #refundIfSoldOut(orderId: string): Promise<void> {
    const order = await findOrder(this.deps.db(), orderId);
    if (order) await this.refundSoldOut(order);
  }

  /**
   * Refunds in full an order that lost the last unit, once: the provider's idempotency key makes
   * a repeated call (after a crash, from another instance) return the same refund.
   */
  async refundSoldOut(order: Pick<OrderRecord, "id" | "outcome" | "refund_id" | "payment_intent_id">): Promise<void> {
    if (order.outcome !== "sold-out" || order.refund_id !== null) return;
    if (!this.deps.payments) throw new Error("payments are not configured");
    if (!order.payment_intent_id) throw new Error(`order ${order.id} has no payment to refund`);
    const refund = await this.deps.payments.createRefund(order.payment_intent_id, `store-sold-out-refund:${order.id}`, {
      purpose: "store",
      order_id: order.id,
      reason: "sold-out",
    });
    await recordAutomaticRefund(this.deps.db(), order.id, refund.id, this.deps.now().toISOString());
    this.deps.log.info({ order_id: order.id, refund_id: refund.id }, "refunded a payment for a sold-out item");
  }

  /** Refunds that failed when they were due (provider down); the server runs this every minute. */
  async retryPendingRefunds(limit = 20): Promise<number> {
    let done = 0;
    for (const due of await refundsDue(this.deps.db(), limit)) {
      try {
        await this.refundSoldOut({
          id: due.order_id,
          outcome: "sold-out",
          refund_id: null,
          payment_intent_id: due.payment_intent_id,
        });
        done++;
      } catch (error) {
        this.deps.log.warn(
          { order_id: due.order_id, err: error instanceof Error ? error.message : String(error) },
          "automatic refund still failing",
        );
      }
    }
    return done;
  }
}
