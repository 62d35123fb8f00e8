import { randomBytes } from "node:crypto";
import { type FormObject, list, metadataOf, object, text } from "./form-body.ts";

/**
 * The provider's objects the service uses, kept in memory with just enough behaviour: sessions are
 * paid, fail, expire; payments are refunded and disputed; each transition yields the event the
 * real provider would send. Shapes follow https://docs.stripe.com/api (fields the service reads,
 * plus a few for realism).
 */
export type Json = Record<string, unknown>;

export class FakeError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code?: string;

  constructor(status: number, type: string, message: string, code?: string) {
    super(message);
    this.status = status;
    this.type = type;
    this.code = code;
  }
}

const now = () => Math.floor(Date.now() / 1000);
export const fakeId = (prefix: string, length = 24) =>
  `${prefix}${randomBytes(length).toString("base64url").replace(/[-_]/g, "").slice(0, length)}`;

interface LineItem {
  quantity: number;
  unit_amount: number;
  currency: string;
  name: string;
}

interface Session {
  json: Json;
  lineItems: LineItem[];
  intentMetadata: Record<string, string>;
}

export class FakeStripeState {
  readonly sessions = new Map<string, Session>();
  readonly intents = new Map<string, Json>();
  readonly charges = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  readonly events: Json[] = [];

  private readonly baseUrl: () => string;

  constructor(baseUrl: () => string) {
    this.baseUrl = baseUrl;
  }

  createSession(params: FormObject): Json {
    const items = list(params.line_items).map((entry) => {
      const item = object(entry);
      const price = object(item.price_data);
      const amount = Number(text(price.unit_amount));
      const currency = text(price.currency);
      const name = text(object(price.product_data).name);
      if (!Number.isInteger(amount) || amount < 0 || !currency || !name)
        throw new FakeError(
          400,
          "invalid_request_error",
          "line_items[].price_data needs unit_amount, currency and product_data[name]",
          "parameter_missing",
        );
      return { quantity: Number(text(item.quantity) ?? "1"), unit_amount: amount, currency, name };
    });
    if (text(params.mode) !== "payment" || items.length === 0 || !text(params.success_url))
      throw new FakeError(
        400,
        "invalid_request_error",
        "mode=payment, line_items and success_url are required",
        "parameter_missing",
      );
    const id = fakeId("cs_test_", 40);
    const created = now();
    const total = items.reduce((sum, item) => sum + item.quantity * item.unit_amount, 0);
    const json: Json = {
      id,
      object: "checkout.session",
      mode: "payment",
      status: "open",
      payment_status: "unpaid",
      url: `${this.baseUrl()}/pay/${id}`,
      created,
      expires_at: created + 86_400,
      amount_subtotal: total,
      amount_total: total,
      currency: items[0]?.currency ?? "eur",
      client_reference_id: text(params.client_reference_id) ?? null,
      customer_email: text(params.customer_email) ?? null,
      customer_details: null,
      metadata: metadataOf(params.metadata),
      payment_intent: null,
      success_url: text(params.success_url),
      cancel_url: text(params.cancel_url) ?? null,
      livemode: false,
    };
    this.sessions.set(id, {
      json,
      lineItems: items,
      intentMetadata: metadataOf(object(params.payment_intent_data).metadata),
    });
    return this.sessionJson(id, false);
  }

  #session(id: string): Session {
    const session = this.sessions.get(id);
    if (!session)
      throw new FakeError(404, "invalid_request_error", `No such checkout.session: '${id}'`, "resource_missing");
    return session;
  }

  sessionJson(id: string, expandLineItems: boolean): Json {
    const session = this.#session(id);
    if (!expandLineItems) return { ...session.json };
    const data = session.lineItems.map((item, index) => ({
      id: `li_${id.slice(-8)}${index}`,
      object: "item",
      description: item.name,
      quantity: item.quantity,
      currency: item.currency,
      amount_subtotal: item.quantity * item.unit_amount,
      amount_total: item.quantity * item.unit_amount,
      price: { object: "price", unit_amount: item.unit_amount, currency: item.currency },
    }));
    return {
      ...session.json,
      line_items: { object: "list", data, has_more: false, url: `/v1/checkout/sessions/${id}/line_items` },
    };
  }

  createIntent(params: FormObject): Json {
    const amount = Number(text(params.amount));
    const currency = text(params.currency);
    if (!Number.isInteger(amount) || amount < 1 || !currency)
      throw new FakeError(400, "invalid_request_error", "amount and currency are required", "parameter_missing");
    const id = fakeId("pi_");
    const intent: Json = {
      id,
      object: "payment_intent",
      amount,
      currency,
      status: "requires_payment_method",
      metadata: metadataOf(params.metadata),
      client_secret: `${id}_secret_${fakeId("", 16)}`,
      latest_charge: null,
      created: now(),
      livemode: false,
    };
    this.intents.set(id, intent);
    return { ...intent };
  }

  /** `expand[]=latest_charge` replaces the charge id with the charge, as the real API does. */
  intentJson(id: string, expandLatestCharge = false): Json {
    const intent = this.intents.get(id);
    if (!intent)
      throw new FakeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, "resource_missing");
    const charge = expandLatestCharge ? this.charges.get(String(intent.latest_charge)) : undefined;
    return { ...intent, ...(charge ? { latest_charge: { ...charge } } : {}) };
  }

  chargeJson(id: string): Json {
    const charge = this.charges.get(id);
    if (!charge) throw new FakeError(404, "invalid_request_error", `No such charge: '${id}'`, "resource_missing");
    return { ...charge };
  }

  /** Marks a payment intent succeeded with a charge; returns the charge. */
  #succeed(intent: Json): Json {
    const id = fakeId("ch_");
    const charge: Json = {
      id,
      object: "charge",
      amount: intent.amount,
      amount_refunded: 0,
      refunded: false,
      currency: intent.currency,
      paid: true,
      status: "succeeded",
      payment_intent: intent.id,
      // Stripe hosts a receipt page for every successful charge (https://docs.stripe.com/api/charges/object#charge_object-receipt_url).
      receipt_url: `${this.baseUrl()}/receipts/${id}`,
      metadata: {},
    };
    this.charges.set(id, charge);
    Object.assign(intent, { status: "succeeded", latest_charge: charge.id });
    return charge;
  }

  #intentFor(session: Session): Json {
    const existing = session.json.payment_intent;
    if (typeof existing === "string") return this.intents.get(existing) ?? {};
    const id = fakeId("pi_");
    const intent: Json = {
      id,
      object: "payment_intent",
      amount: session.json.amount_total,
      currency: session.json.currency,
      status: "processing",
      metadata: session.intentMetadata,
      client_secret: null,
      latest_charge: null,
      created: now(),
      livemode: false,
    };
    this.intents.set(id, intent);
    session.json.payment_intent = id;
    return intent;
  }

  /** The buyer pays; `async` leaves the payment processing (a bank debit) until `settleAsync`. */
  pay(id: string, options: { email?: string; async?: boolean } = {}): Json {
    const session = this.#session(id);
    if (session.json.status !== "open")
      throw new FakeError(400, "invalid_request_error", `The session is ${String(session.json.status)}`);
    const email =
      options.email ??
      (typeof session.json.customer_email === "string" ? session.json.customer_email : "buyer@example.com");
    const intent = this.#intentFor(session);
    if (!options.async) this.#succeed(intent);
    Object.assign(session.json, {
      status: "complete",
      payment_status: options.async ? "unpaid" : "paid",
      customer_details: { email },
      url: null,
    });
    return this.event("checkout.session.completed", this.sessionJson(id, false));
  }

  settleAsync(id: string, outcome: "succeeded" | "failed"): Json {
    const session = this.#session(id);
    const intent = this.#intentFor(session);
    if (outcome === "succeeded") {
      this.#succeed(intent);
      session.json.payment_status = "paid";
      return this.event("checkout.session.async_payment_succeeded", this.sessionJson(id, false));
    }
    intent.status = "requires_payment_method";
    return this.event("checkout.session.async_payment_failed", this.sessionJson(id, false));
  }

  expire(id: string): Json {
    const session = this.#session(id);
    if (session.json.status !== "open")
      throw new FakeError(400, "invalid_request_error", "Only an open session can expire");
    Object.assign(session.json, { status: "expired", url: null });
    return this.event("checkout.session.expired", this.sessionJson(id, false));
  }

  /** `POST /v1/refunds` and the dashboard's refund button: a full refund, and its `charge.refunded` event. */
  refund(params: { payment_intent?: string; charge?: string; metadata?: Record<string, string> }): {
    refund: Json;
    event: Json;
  } {
    const charge = params.charge
      ? this.charges.get(params.charge)
      : [...this.charges.values()].find((candidate) => candidate.payment_intent === params.payment_intent);
    if (!charge) throw new FakeError(400, "invalid_request_error", "No succeeded charge to refund", "charge_not_found");
    if (charge.refunded === true)
      throw new FakeError(
        400,
        "invalid_request_error",
        `Charge ${String(charge.id)} has already been refunded.`,
        "charge_already_refunded",
      );
    const refund: Json = {
      id: fakeId("re_"),
      object: "refund",
      amount: charge.amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      status: "succeeded",
      metadata: params.metadata ?? {},
    };
    this.refunds.set(String(refund.id), refund);
    Object.assign(charge, { refunded: true, amount_refunded: charge.amount });
    return { refund, event: this.event("charge.refunded", { ...charge }) };
  }

  refundSession(id: string): Json {
    const intent = this.#session(id).json.payment_intent;
    return this.refund({ payment_intent: typeof intent === "string" ? intent : "" }).event;
  }

  disputeSession(id: string): Json {
    const intent = this.intents.get(String(this.#session(id).json.payment_intent));
    if (!intent || typeof intent.latest_charge !== "string")
      throw new FakeError(400, "invalid_request_error", "No charge to dispute");
    return this.event("charge.dispute.created", {
      id: fakeId("dp_"),
      object: "dispute",
      amount: intent.amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: "fraudulent",
      status: "needs_response",
    });
  }

  /** A payment intent confirmed by the buyer (report unlocks, credit packs). */
  succeedIntent(id: string): Json {
    const intent = this.intents.get(id);
    if (!intent)
      throw new FakeError(404, "invalid_request_error", `No such payment_intent: '${id}'`, "resource_missing");
    this.#succeed(intent);
    return this.event("payment_intent.succeeded", { ...intent });
  }

  event(type: string, dataObject: Json): Json {
    const event: Json = {
      id: fakeId("evt_"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: dataObject },
    };
    this.events.push(event);
    return event;
  }
}
