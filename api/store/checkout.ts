import { createHmac } from "node:crypto";
import { paths } from "../../src/lib/urls.ts";
import type { StoreCheckout as CheckoutInput } from "../../src/schemas/requests/store-checkout.ts";
import type { CheckoutStarted } from "../../src/schemas/responses/store.ts";
import type { Sql } from "../db/sql.ts";
import { PaymentsUnavailableError, paymentsProblem } from "../payments/provider-failure.ts";
import { noCheckoutPage, type PaymentsGateway } from "../payments/stripe-client.ts";
import type { CheckoutSession, StoreMetadata } from "../payments/stripe-objects.ts";
import { randomBase62 } from "../platform/auth/agent-token.ts";
import { paymentsNotConfigured } from "../platform/availability.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { ApiProblem } from "../platform/problem.ts";
import { validationProblem } from "../platform/violations.ts";
import type { StoreCatalogue } from "./catalogue.ts";
import { unitsSold } from "./sql/fulfilments.ts";
import { insertOrder } from "./sql/orders.ts";

export interface StoreCheckoutDeps {
  db: () => Sql;
  now: () => Date;
  catalogue: StoreCatalogue;
  payments: PaymentsGateway | null;
  siteUrl: string;
  /** The ring's current key: order ids from client keys are short-lived, so older keys never matter. */
  serverSecret: string;
  /** The order keeps the session id's keyed hash: the id itself is the purchase's credential. */
  keys: LookupKeys;
}

/** Starts hosted checkouts for catalogue items and fees; the price is always the catalogue's. */
export class StoreCheckout {
  private readonly deps: StoreCheckoutDeps;

  constructor(deps: StoreCheckoutDeps) {
    this.deps = deps;
  }

  /**
   * 404 unknown or unpublished, 409 not on sale or sold out, 422 more than one unit of an item
   * with a file, 503 when the provider fails (then no order is recorded). `requestKey` is the
   * client's optional `Idempotency-Key`: the same key and body give the same checkout session.
   */
  async start(productId: string, input: CheckoutInput, requestKey?: string): Promise<CheckoutStarted> {
    const { catalogue, payments } = this.deps;
    const product = catalogue.published(productId);
    if (!product) throw new ApiProblem("not-found", `There is no product ${productId} in the store.`);
    if (!product.data.on_sale)
      throw new ApiProblem("not-on-sale", `${product.data.title} is listed but not on sale right now.`);
    const quantity = input.quantity ?? 1;
    if (product.data.file && quantity > 1)
      throw validationProblem([
        { pointer: "#/quantity", detail: "must be 1: items with a file are bought one at a time" },
      ]);
    if (product.data.stock !== undefined) {
      // Advisory: the fulfilment takes the unit atomically; this only spares a buyer a payment that would be refunded.
      const sold = await unitsSold(this.deps.db(), product.id);
      if (sold + quantity > product.data.stock) throw new ApiProblem("sold-out", `${product.data.title} is sold out.`);
    }
    if (!payments) throw paymentsNotConfigured();

    const orderId = requestKey
      ? this.#orderIdFor(requestKey, product.id, quantity, input.email)
      : `ord_${randomBase62(20)}`;
    const metadata: StoreMetadata = { purpose: "store", order_id: orderId, product_id: product.id };
    const { price } = product.data;
    let session: CheckoutSession;
    try {
      session = await payments.createCheckoutSession(
        {
          mode: "payment",
          line_items: [
            {
              quantity,
              price_data: {
                currency: price.currency,
                unit_amount: price.amount,
                product_data: { name: product.data.title, description: product.data.description },
              },
            },
          ],
          client_reference_id: orderId,
          ...(input.email ? { customer_email: input.email } : {}),
          metadata,
          // Session metadata is not copied to the payment: refunds and disputes find the order through this.
          payment_intent_data: { metadata },
          success_url: `${this.deps.siteUrl}/store/return?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${this.deps.siteUrl}${paths.product(product.id)}`,
        },
        `store-checkout:${orderId}`,
      );
    } catch (error) {
      if (error instanceof PaymentsUnavailableError) throw paymentsProblem(error);
      throw error;
    }
    if (!session.url) throw noCheckoutPage();
    const expiresAt = new Date(session.expires_at * 1000).toISOString();
    await insertOrder(this.deps.db(), {
      id: orderId,
      session_hash: this.deps.keys.hash("checkout-session", session.id),
      product_id: product.id,
      quantity,
      amount: price.amount * quantity,
      currency: price.currency,
      email: input.email ?? null,
      checkout_status: session.status ?? "open",
      payment_status: session.payment_status,
      payment_intent_id: session.payment_intent,
      expires_at: expiresAt,
      created_at: this.deps.now().toISOString(),
    });
    return { id: session.id, url: session.url, expires_at: expiresAt };
  }

  /** The same client key and body always name the same order, hence the same provider idempotency key. */
  #orderIdFor(requestKey: string, productId: string, quantity: number, email: string | undefined): string {
    const digest = createHmac("sha256", this.deps.serverSecret)
      .update(["store-checkout-key", requestKey, productId, String(quantity), email ?? ""].join("\0"))
      .digest("hex");
    return `ord_${digest.slice(0, 24)}`;
  }
}
