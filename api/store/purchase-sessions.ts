import type { PurchaseReceipt } from "../../src/lib/page-services.ts";
import type { PurchaseSession } from "../../src/schemas/responses/store.ts";
import type { Sql } from "../db/sql.ts";
import { PaymentsUnavailableError, paymentsProblem } from "../payments/provider-failure.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import { type CheckoutSession, StoreMetadataSchema } from "../payments/stripe-objects.ts";
import { paymentsNotConfigured } from "../platform/availability.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { StoreCatalogue } from "./catalogue.ts";
import { isPaid, type StoreFulfilment } from "./fulfilment.ts";
import { isEntitlementActive } from "./sql/entitlements.ts";
import { findOrderBySession, type OrderRecord, settleUnpaidOrderStatement } from "./sql/orders.ts";

export interface PurchaseSessionsDeps {
  db: () => Sql;
  now: () => Date;
  catalogue: StoreCatalogue;
  payments: PaymentsGateway | null;
  fulfilment: StoreFulfilment;
  /** Orders are found by the session id's keyed hash: the id itself is the purchase's credential. */
  keys: LookupKeys;
  log: Logger;
}

/** `cs_test_…` or `cs_live_…`: anything else is not a checkout session, and the provider is not asked. */
export const SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{1,200}$/;

const CHECKOUT_STATUSES = ["open", "complete", "expired"] as const;
const PAYMENT_STATUSES = ["paid", "unpaid", "no_payment_required"] as const;
const oneOf = <T extends string>(values: readonly T[], value: string, fallback: T): T =>
  values.find((candidate) => candidate === value) ?? fallback;

export const downloadPath = (sessionId: string) => `/api/v1/store/sessions/${sessionId}/download`;

/**
 * `shopper@example.com` → `s•••@example.com`: enough for the buyer to recognise the address, not
 * enough for someone handed the return page's address (the session id is its only key) to learn it.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return "•••";
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

export function sessionNotFound(): ApiProblem {
  return new ApiProblem("not-found", "There is no purchase with this session id.");
}

/**
 * A purchase as its buyer follows it. A settled purchase is answered from the database; an open
 * one is read from the provider, and fulfilled on the spot when the provider says it is paid (the
 * buyer may come back before the webhook does).
 */
export class PurchaseSessions {
  private readonly deps: PurchaseSessionsDeps;

  constructor(deps: PurchaseSessionsDeps) {
    this.deps = deps;
  }

  async lookup(sessionId: string): Promise<PurchaseSession> {
    if (!SESSION_ID_PATTERN.test(sessionId)) throw sessionNotFound();
    const db = this.deps.db();
    const sessionHash = this.deps.keys.hash("checkout-session", sessionId);
    const order = await findOrderBySession(db, sessionHash);
    if (order && order.state !== "pending") {
      if (order.outcome === "sold-out" && order.refund_id === null) await this.#retryRefund(order);
      return this.view(order, sessionId);
    }
    if (!this.deps.payments) throw paymentsNotConfigured();
    let session: CheckoutSession | null;
    try {
      session = await this.deps.payments.retrieveCheckoutSession(sessionId);
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) throw paymentsProblem(error);
      throw error;
    }
    const metadata = session ? StoreMetadataSchema.safeParse(session.metadata) : undefined;
    if (!session || !metadata?.success) throw sessionNotFound();
    if (isPaid(session)) {
      await this.deps.fulfilment.fulfil(session);
    } else if (session.status === "expired" && order) {
      await db.execute(
        settleUnpaidOrderStatement(
          sessionHash,
          "expired",
          "expired",
          session.payment_status,
          this.deps.now().toISOString(),
        ),
      );
    }
    const current = await findOrderBySession(db, sessionHash);
    if (current) return this.view(current, sessionId, current.state === "pending" ? session : undefined);
    return this.#viewUnrecorded(session, metadata.data.product_id);
  }

  /**
   * The API's view of the order of checkout session `sessionId` (the caller's: the database keeps
   * only its hash); `live` overrides the provider's statuses with a fresh reading.
   */
  view(order: OrderRecord, sessionId: string, live?: CheckoutSession): PurchaseSession {
    const product = this.deps.catalogue.any(order.product_id);
    const entitlement = order.entitlement;
    const active = entitlement !== null && isEntitlementActive(entitlement, this.deps.now());
    return {
      id: sessionId,
      status: oneOf(CHECKOUT_STATUSES, live?.status ?? order.checkout_status, "open"),
      payment_status: oneOf(PAYMENT_STATUSES, live?.payment_status ?? order.payment_status, "unpaid"),
      items: [
        {
          product_id: order.product_id,
          title: product?.data.title ?? order.product_id,
          kind: product?.data.kind ?? "item",
          quantity: order.quantity,
        },
      ],
      total: { amount: order.amount, currency: order.currency },
      delivery: { state: order.state },
      entitlement: { active, expires_at: entitlement?.expires_at ?? null },
      ...(active && product?.data.file ? { download_url: downloadPath(sessionId) } : {}),
    };
  }

  /**
   * What the checkout return page shows besides the purchase: the order number, where the e-mail
   * went (masked) and the provider's receipt once charged; `null` before an order exists. Read after
   * `lookup`, which records a paid order.
   */
  async receipt(sessionId: string): Promise<PurchaseReceipt | null> {
    if (!SESSION_ID_PATTERN.test(sessionId)) return null;
    const order = await findOrderBySession(this.deps.db(), this.deps.keys.hash("checkout-session", sessionId));
    if (!order) return null;
    const email = order.entitlement?.email ?? order.email;
    let receiptUrl: string | null = null;
    const charged = order.state === "fulfilled" || order.state === "revoked" || order.state === "refunded";
    if (charged && order.payment_intent_id && this.deps.payments) {
      try {
        receiptUrl = await this.deps.payments.receiptUrl(order.payment_intent_id);
      } catch (error) {
        if (!(error instanceof PaymentsUnavailableError)) throw error;
        // The receipt link is a convenience: the page still shows the purchase and its download.
        this.deps.log.warn({ order_id: order.id, err: error.message }, "the provider's receipt could not be read");
      }
    }
    return { order_number: order.id, sent_to: email ? maskEmail(email) : null, receipt_url: receiptUrl };
  }

  /** A session of ours whose order row was never written (the write after checkout failed). */
  #viewUnrecorded(session: CheckoutSession, productId: string): PurchaseSession {
    const product = this.deps.catalogue.any(productId);
    const quantity = session.line_items?.data.reduce((sum, item) => sum + (item.quantity ?? 1), 0) || 1;
    return {
      id: session.id,
      status: session.status ?? "open",
      payment_status: session.payment_status,
      items: [
        {
          product_id: productId,
          title: product?.data.title ?? productId,
          kind: product?.data.kind ?? "item",
          quantity,
        },
      ],
      total: {
        amount: session.amount_total ?? (product?.data.price.amount ?? 0) * quantity,
        currency: session.currency ?? product?.data.price.currency ?? "eur",
      },
      delivery: { state: session.status === "expired" ? "expired" : "pending" },
      entitlement: { active: false, expires_at: null },
    };
  }

  async #retryRefund(order: OrderRecord): Promise<void> {
    try {
      await this.deps.fulfilment.refundSoldOut(order);
    } catch (error) {
      this.deps.log.warn(
        { order_id: order.id, err: error instanceof Error ? error.message : String(error) },
        "automatic refund still failing",
      );
    }
  }
}
