import type { FormResult, PageServices, PurchaseReceipt } from "../../src/lib/page-services.ts";
import type { AppServices } from "../app-services.ts";
import { PaymentsUnavailableError } from "../payments/stripe-client.ts";
import { requireAvailable } from "../platform/availability.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import { SESSION_ID_PATTERN } from "./purchase-sessions.ts";
import { findOrderBySession } from "./sql/orders.ts";

type FormRunner = <T>(action: () => Promise<T>) => Promise<FormResult<T>>;

/**
 * `shopper@example.com` → `s•••@example.com`: enough for the buyer to recognise the address, not
 * enough for someone handed the page's address (the session id is its only key) to learn it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

/**
 * The store's part of the page services: the buy button (a plain form post) and the checkout
 * return page, with the same checks and limits as the JSON API.
 */
export function storePageServices(
  services: AppServices,
  address: string,
  asForm: FormRunner,
): Pick<PageServices, "startCheckout" | "purchaseSession" | "purchaseReceipt"> {
  const service = services.content.service;
  return {
    startCheckout: (productId) =>
      asForm(async () => {
        await requireAvailable("startStoreCheckout", services.monitor, service);
        await enforceRateLimit(services.limiter, "store-checkout", address);
        const started = await services.store.checkout.start(productId, {});
        return { url: started.url };
      }),
    purchaseSession: (sessionId) =>
      asForm(async () => {
        await requireAvailable("getPurchaseSession", services.monitor, service);
        await enforceRateLimit(services.limiter, "session-lookup", address);
        return services.store.sessions.lookup(sessionId);
      }),
    purchaseReceipt: (sessionId) => purchaseReceipt(services, sessionId),
  };
}

/** Read after `purchaseSession` (which records a paid order), so a settled purchase always has its order. */
async function purchaseReceipt(services: AppServices, sessionId: string): Promise<PurchaseReceipt | null> {
  if (!SESSION_ID_PATTERN.test(sessionId)) return null;
  const order = await findOrderBySession(services.database.client, sessionId);
  if (!order) return null;
  const email = order.entitlement?.email ?? order.email;
  let receiptUrl: string | null = null;
  const charged = order.state === "fulfilled" || order.state === "revoked" || order.state === "refunded";
  if (charged && order.payment_intent_id && services.payments) {
    try {
      receiptUrl = await services.payments.receiptUrl(order.payment_intent_id);
    } catch (error) {
      // The receipt link is a convenience: the page still shows the purchase and its download.
      if (!(error instanceof PaymentsUnavailableError)) throw error;
    }
  }
  return { order_number: order.id, sent_to: email ? maskEmail(email) : null, receipt_url: receiptUrl };
}
