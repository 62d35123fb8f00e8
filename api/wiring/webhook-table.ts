import type { checkWebhookHandlers } from "../checks/webhooks.ts";
import type { WebhookTable } from "../payments/webhooks.ts";
import type { storeWebhookHandlers } from "../store/webhooks.ts";

/**
 * Every payment event the service acts on, and who acts (https://docs.stripe.com/webhooks): the one
 * place to read which Stripe events to enable on the endpoint. A session or payment belongs to one
 * feature (its metadata says which); the other's handler answers null for it.
 */
export function webhookTable(
  store: ReturnType<typeof storeWebhookHandlers>,
  checks: ReturnType<typeof checkWebhookHandlers>,
): WebhookTable {
  return {
    "checkout.session.completed": [store.fulfil, checks.unlockFromSession],
    "checkout.session.async_payment_succeeded": [store.fulfil, checks.unlockFromSession],
    "checkout.session.async_payment_failed": [store.settleFailed],
    "checkout.session.expired": [store.settleExpired],
    "payment_intent.succeeded": [checks.unlockFromIntent],
    "charge.refunded": [store.revokeOnRefund, checks.revokeOnRefund],
    "charge.dispute.created": [store.revokeOnDispute, checks.revokeOnDispute],
  };
}
