import type { Sql } from "../db/sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import {
  ChargeSchema,
  CheckMetadataSchema,
  CheckoutSessionSchema,
  DisputeSchema,
  type PaymentEvent,
  PaymentIntentSchema,
} from "../payments/stripe-objects.ts";
import type { WebhookEffect, WebhookHandler } from "../payments/webhooks.ts";
import { type CheckFulfilment, checkMetadataOf } from "./fulfilment.ts";
import { findCheckPayment } from "./sql/payments.ts";

export interface CheckWebhookDeps {
  db: () => Sql;
  payments: PaymentsGateway;
  fulfilment: CheckFulfilment;
}

/**
 * Report unlocks and credit packs through the payment webhook. Agents confirm a PaymentIntent
 * (`payment_intent.succeeded`); people pay on the hosted page (`checkout.session.completed`, whose
 * payment carries the same metadata). Both re-read the payment from the provider and run the one
 * idempotent fulfilment, so replays, duplicates and either order change nothing twice.
 */
export function checkWebhookHandlers(deps: CheckWebhookDeps) {
  const unlockFromIntent: WebhookHandler = async (event) => {
    const intent = PaymentIntentSchema.safeParse(event.data.object);
    if (!intent.success || !checkMetadataOf(intent.data)) return null;
    return { statements: (await deps.fulfilment.planFromProvider(intent.data.id)) ?? [] };
  };

  const unlockFromSession = async (event: PaymentEvent): Promise<WebhookEffect | null> => {
    const announced = CheckoutSessionSchema.safeParse(event.data.object);
    if (!announced.success || !CheckMetadataSchema.safeParse(announced.data.metadata).success) return null;
    const session = await deps.payments.retrieveCheckoutSession(announced.data.id);
    if (session?.payment_status !== "paid" || !session.payment_intent) return { statements: [] };
    return { statements: (await deps.fulfilment.planFromProvider(session.payment_intent)) ?? [] };
  };

  /** Whether a payment is a report purchase: recorded here, or (a refund may come first) named so by its metadata. */
  const ours = async (paymentIntentId: string | null): Promise<string | null> => {
    if (!paymentIntentId) return null;
    if (await findCheckPayment(deps.db(), paymentIntentId)) return paymentIntentId;
    const intent = await deps.payments.retrievePaymentIntent(paymentIntentId);
    return intent && checkMetadataOf(intent) ? paymentIntentId : null;
  };
  const revoke = async (paymentIntentId: string | null): Promise<WebhookEffect | null> => {
    const id = await ours(paymentIntentId);
    return id ? { statements: deps.fulfilment.revocation(id) } : null;
  };
  const revokeOnRefund: WebhookHandler = async (event) => {
    const charge = ChargeSchema.safeParse(event.data.object);
    return charge.success ? revoke(charge.data.payment_intent) : null;
  };
  const revokeOnDispute: WebhookHandler = async (event) => {
    const dispute = DisputeSchema.safeParse(event.data.object);
    return dispute.success ? revoke(dispute.data.payment_intent) : null;
  };

  return { unlockFromIntent, unlockFromSession, revokeOnRefund, revokeOnDispute };
}
