import { createHmac } from "node:crypto";
import type { CheckCheckout } from "../../src/schemas/requests/checks.ts";
import type { CheckCheckoutResult } from "../../src/schemas/responses/checks.ts";
import type { PricingFile } from "../../src/schemas/service.ts";
import type { Sql } from "../db/sql.ts";
import { PaymentsUnavailableError, paymentsProblem } from "../payments/provider-failure.ts";
import { noCheckoutPage, type PaymentsGateway, paymentsUnavailable } from "../payments/stripe-client.ts";
import type { CheckMetadata, CheckoutSession, PaymentIntent } from "../payments/stripe-objects.ts";
import { paymentsNotConfigured } from "../platform/availability.ts";
import { ApiProblem } from "../platform/problem.ts";
import { validationProblem } from "../platform/violations.ts";
import type { CheckFulfilment } from "./fulfilment.ts";
import { recordStartedCheckPayment } from "./sql/payments.ts";
import type { StoredReport } from "./sql/reports.ts";

export interface CheckPaymentsDeps {
  db: () => Sql;
  now: () => Date;
  payments: PaymentsGateway | null;
  pricing: PricingFile["checks"];
  siteUrl: string;
  /** The ring's current key: idempotency keys are short-lived, so older keys never matter. */
  serverSecret: string;
  /** The `credit_packs` switch: packs can be bought only while it is on. */
  packsOpen: () => Promise<boolean>;
  fulfilment: CheckFulfilment;
}

/** What one purchase costs and gives, from content/pricing.yaml only (never from the buyer). */
interface Offer {
  amount: number;
  currency: string;
  credits: number;
  packId: string | null;
  title: string;
}

/**
 * Paying for a report: a PaymentIntent client secret for agents and programs (they confirm it with
 * the provider's SDK), or a hosted checkout page for people. Either way the payment's metadata
 * names the report and the purchase, and `CheckFulfilment` unlocks it once the provider says paid.
 */
export class CheckPayments {
  private readonly deps: CheckPaymentsDeps;

  constructor(deps: CheckPaymentsDeps) {
    this.deps = deps;
  }

  /** 409 when unlocked already, 422 for an unknown pack, 503 when packs are off or the provider fails. */
  async start(report: StoredReport, input: CheckCheckout): Promise<CheckCheckoutResult> {
    const { offer, metadata, payments } = await this.#prepare(report, input);
    let intent: PaymentIntent;
    try {
      intent = await payments.createPaymentIntent(
        {
          amount: offer.amount,
          currency: offer.currency,
          metadata,
          description: `${offer.title}: ${new URL(report.summary.target.origin).host}`,
          automatic_payment_methods: { enabled: true },
        },
        this.#idempotencyKey("intent", report.id, input, offer),
      );
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) throw paymentsProblem(error);
      throw error;
    }
    // Never stored or logged (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-client_secret).
    if (!intent.client_secret)
      throw paymentsUnavailable("The payment provider did not return a client secret; nothing was charged.");
    await recordStartedCheckPayment(this.deps.db(), {
      payment_id: intent.id,
      report_id: report.key,
      purchase: input.purchase,
      pack_id: offer.packId,
      credits: offer.credits,
      email: input.email,
      amount: intent.amount,
      currency: intent.currency,
      created_at: this.deps.now().toISOString(),
    });
    return {
      client_secret: intent.client_secret,
      amount: intent.amount,
      currency: intent.currency,
      purchase: input.purchase,
      pack: offer.packId,
      credits: offer.credits,
    };
  }

  /** The hosted checkout page's URL (for the report page's card button); the same rules as `start`. */
  async startHosted(report: StoredReport, input: CheckCheckout): Promise<{ url: string }> {
    const { offer, metadata, payments } = await this.#prepare(report, input);
    const reportPage = `${this.deps.siteUrl}/checks/${report.id}`;
    let session: CheckoutSession;
    try {
      session = await payments.createCheckoutSession(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: offer.currency,
                unit_amount: offer.amount,
                product_data: { name: `${offer.title} (${new URL(report.summary.target.origin).host})` },
              },
            },
          ],
          customer_email: input.email,
          client_reference_id: report.id,
          metadata,
          // Session metadata is not copied to the payment; the fulfilment reads the payment's.
          payment_intent_data: { metadata },
          success_url: `${reportPage}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: reportPage,
        },
        this.#idempotencyKey("session", report.id, input, offer),
      );
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) throw paymentsProblem(error);
      throw error;
    }
    if (!session.url) throw noCheckoutPage();
    return { url: session.url };
  }

  /**
   * The buyer is back from the hosted page: ask the provider, and unlock at once if it was paid
   * (the webhook does the same; whichever comes first does it, the other finds it done).
   */
  async confirmHosted(reportId: string, sessionId: string): Promise<"paid" | "pending" | "unknown"> {
    if (!this.deps.payments || !/^cs_(test|live)_[A-Za-z0-9]+$/.test(sessionId)) return "unknown";
    try {
      return await this.deps.fulfilment.fulfilSession(sessionId, reportId);
    } catch (error) {
      // The provider is slow or down: the webhook will still come; the page says it is pending.
      if (error instanceof PaymentsUnavailableError) return "pending";
      throw error;
    }
  }

  async #prepare(
    report: StoredReport,
    input: CheckCheckout,
  ): Promise<{ offer: Offer; metadata: CheckMetadata; payments: PaymentsGateway }> {
    if (report.unlocked_at !== null)
      throw new ApiProblem("already-unlocked", "This report is already unlocked; nothing was charged.");
    const offer = this.#offer(input);
    if (input.purchase === "pack" && !(await this.deps.packsOpen())) {
      throw new ApiProblem(
        "form-closed",
        "Credit packs are not on sale right now (credit_packs is switched off); a single unlock still is.",
        { headers: { "Retry-After": "3600" } },
      );
    }
    const { payments } = this.deps;
    if (!payments) throw paymentsNotConfigured();
    const metadata: CheckMetadata = {
      purpose: "check",
      report_id: report.id,
      purchase: input.purchase,
      pack_id: offer.packId ?? "",
      credits: String(offer.credits),
      email: input.email,
    };
    return { offer, metadata, payments };
  }

  #offer(input: CheckCheckout): Offer {
    const { pricing } = this.deps;
    if (input.purchase === "unlock")
      return { ...pricing.unlock, credits: 1, packId: null, title: "Readiness report unlock" };
    const pack = pricing.packs.find((candidate) => candidate.id === input.pack);
    if (!pack) {
      const known = pricing.packs.map((candidate) => candidate.id).join(", ");
      throw validationProblem([
        { pointer: "#/pack", detail: `no such pack; the packs are ${known} (see /pricing.json)` },
      ]);
    }
    return { ...pack.price, credits: pack.credits, packId: pack.id, title: pack.title };
  }

  /**
   * The same report, purchase, e-mail and price always give the same key, so a repeated or
   * double-clicked checkout gets the same payment rather than a second one. The e-mail enters only
   * through an HMAC: the key is sent to the provider and may appear in its logs.
   */
  #idempotencyKey(kind: "intent" | "session", reportId: string, input: CheckCheckout, offer: Offer): string {
    const digest = createHmac("sha256", this.deps.serverSecret)
      .update(
        [kind, reportId, input.purchase, offer.packId ?? "", input.email, offer.amount, offer.currency].join("\0"),
      )
      .digest("hex");
    return `check-${kind}:${digest.slice(0, 32)}`;
  }
}
