import type { Sql } from "../db/sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import {
  ChargeSchema,
  CheckoutSessionSchema,
  DisputeSchema,
  type PaymentEvent,
  StoreMetadataSchema,
} from "../payments/stripe-objects.ts";
import type { WebhookEffect, WebhookHandler } from "../payments/webhooks.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import { isPaid, type StoreFulfilment } from "./fulfilment.ts";
import { revocationStatements } from "./sql/fulfilments.ts";
import { findOrderIdByPaymentIntent, settleUnpaidOrderStatement } from "./sql/orders.ts";

export interface StoreWebhookDeps {
  db: () => Sql;
  now: () => Date;
  payments: PaymentsGateway;
  fulfilment: StoreFulfilment;
  keys: LookupKeys;
  log: Logger;
}

/** The event's session, when it is one of the store's (our metadata); other sessions are not ours. */
function storeSession(event: PaymentEvent) {
  const session = CheckoutSessionSchema.safeParse(event.data.object);
  if (!session.success || !StoreMetadataSchema.safeParse(session.data.metadata).success) return null;
  return session.data;
}

/**
 * The store's webhook handlers (https://docs.stripe.com/checkout/fulfillment#create-payment-event-handler):
 * completed and async-succeeded sessions are re-read from the provider and fulfilled; failed and
 * expired ones settle a pending order; refunds and disputes revoke the entitlement. Each is safe
 * to receive twice and in any order.
 */
export function storeWebhookHandlers(deps: StoreWebhookDeps) {
  const fulfil = async (event: PaymentEvent): Promise<WebhookEffect | null> => {
    const announced = storeSession(event);
    if (!announced) return null;
    // The event may be stale or replayed: the provider's current session decides (throws ⇒ 5xx ⇒ redelivery).
    const session = await deps.payments.retrieveCheckoutSession(announced.id);
    if (!session || !isPaid(session)) return { statements: [] };
    return deps.fulfilment.plan(session);
  };

  const settle =
    (state: "failed" | "expired") =>
    async (event: PaymentEvent): Promise<WebhookEffect | null> => {
      const session = storeSession(event);
      if (!session) return null;
      return {
        statements: [
          settleUnpaidOrderStatement(
            deps.keys.hash("checkout-session", session.id),
            state,
            session.status ?? (state === "expired" ? "expired" : "complete"),
            session.payment_status,
            deps.now().toISOString(),
          ),
        ],
      };
    };

  /** Our order behind a payment: recorded at fulfilment, or named in the payment's metadata (a refund may come first). */
  const orderOfPayment = async (paymentIntentId: string | null): Promise<string | null> => {
    if (!paymentIntentId) return null;
    const known = await findOrderIdByPaymentIntent(deps.db(), paymentIntentId);
    if (known) return known;
    const intent = await deps.payments.retrievePaymentIntent(paymentIntentId);
    const metadata = StoreMetadataSchema.safeParse(intent?.metadata);
    return metadata.success ? metadata.data.order_id : null;
  };

  const revokeOnRefund: WebhookHandler = async (event) => {
    const charge = ChargeSchema.safeParse(event.data.object);
    if (!charge.success) return null;
    const orderId = await orderOfPayment(charge.data.payment_intent);
    return orderId
      ? { statements: revocationStatements(orderId, "refund", charge.data.id, deps.now().toISOString()) }
      : null;
  };

  const revokeOnDispute: WebhookHandler = async (event) => {
    const dispute = DisputeSchema.safeParse(event.data.object);
    if (!dispute.success) return null;
    const orderId = await orderOfPayment(dispute.data.payment_intent);
    if (!orderId && !dispute.data.payment_intent)
      deps.log.warn({ dispute_id: dispute.data.id }, "a dispute without a payment intent: find its order by hand");
    return orderId
      ? { statements: revocationStatements(orderId, "dispute", dispute.data.id, deps.now().toISOString()) }
      : null;
  };

  return { fulfil, settleFailed: settle("failed"), settleExpired: settle("expired"), revokeOnRefund, revokeOnDispute };
}
