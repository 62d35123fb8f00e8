import { createRequire } from "node:module";
import type Stripe from "stripe";
import type { z } from "zod";
import type { Config } from "../config.ts";
import type { Logger } from "../platform/log.ts";
import { ApiProblem } from "../platform/problem.ts";
import {
  describeCallFailure,
  describeUnexpectedAnswer,
  isStripeError,
  isUnparseableAnswer,
  PaymentsAnswerInvalidError,
  PaymentsUnavailableError,
} from "./provider-failure.ts";
import {
  type CheckoutSession,
  CheckoutSessionSchema,
  type PaymentEvent,
  PaymentEventSchema,
  type PaymentIntent,
  PaymentIntentSchema,
  PaymentWithChargeSchema,
  type Refund,
  RefundSchema,
} from "./stripe-objects.ts";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string | undefined;
  /** A stripe-mock-compatible server for local work and tests; never in production (config refuses it). */
  apiBase: string | undefined;
  timeoutMs: number;
}

/** How far a webhook signature's timestamp may be from now, either way: the SDK's default tolerance. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The `t=` values of a `Stripe-Signature` header, read the way the SDK reads them (its parseHeader:
 * comma-separated `key=value` items, key `t` exactly), so the one checked here is the one it signs.
 */
export function signatureTimestamps(header: string): string[] {
  return header
    .split(",")
    .map((item) => item.split("="))
    .filter(([key]) => key === "t")
    .map(([, value]) => value ?? "");
}

/**
 * The SDK, loaded when a client is made: without STRIPE_SECRET_KEY nothing needs its ~220 modules,
 * a sixth of every server start. `require` keeps the gateway's construction synchronous; the
 * package's CommonJS entry is the same SDK as its ES module one.
 */
const stripeSdk = () => createRequire(import.meta.url)("stripe") as typeof Stripe;

/** The webhook's signature or timestamp does not verify for these exact bytes. */
export class WebhookSignatureError extends Error {}

/**
 * The SDK client. An explicit timeout (the SDK's default is 80 s) and one network retry: the SDK
 * retries connection errors, 409s and 5xx with the same idempotency key
 * (https://docs.stripe.com/api/idempotent_requests), so a retry can never charge twice.
 */
export function createStripeClient(settings: StripeSettings): Stripe {
  const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
  const Sdk = stripeSdk();
  return new Sdk(settings.secretKey, {
    timeout: settings.timeoutMs,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: "agent-ready-service" },
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "http:" ? 80 : 443),
          protocol: base.protocol === "http:" ? "http" : "https",
        }
      : {}),
  });
}

/** The problem a caller answers when payments cannot be used now (nothing was charged). */
export function paymentsUnavailable(detail: string): ApiProblem {
  return new ApiProblem("service-unavailable", detail, { headers: { "Retry-After": "30" } });
}

/** The provider created a checkout session without the page to send the buyer to. */
export function noCheckoutPage(): ApiProblem {
  return paymentsUnavailable("The payment provider did not return a checkout page; nothing was charged.");
}

/** The gateway for the configured keys, or `null` without STRIPE_SECRET_KEY (payments answer 503). */
export function paymentsGatewayFor(stripe: Config["stripe"], log: Logger): PaymentsGateway | null {
  if (!stripe.secretKey) return null;
  const client = createStripeClient({
    secretKey: stripe.secretKey,
    webhookSecret: stripe.webhookSecret,
    apiBase: stripe.apiBase,
    timeoutMs: stripe.timeoutMs,
  });
  return new PaymentsGateway(client, stripe.webhookSecret, log);
}

function isMissing(error: unknown): boolean {
  return isStripeError(error, "StripeInvalidRequestError") && error.statusCode === 404;
}

/**
 * The calls this service makes to the payment provider, each answer parsed with zod. Store
 * checkout uses hosted Checkout Sessions; report unlocks and credit packs use PaymentIntents.
 */
export class PaymentsGateway {
  private readonly stripe: Stripe;
  private readonly webhookSecret: string | undefined;
  private readonly log: Logger;

  constructor(stripe: Stripe, webhookSecret: string | undefined, log: Logger) {
    this.stripe = stripe;
    this.webhookSecret = webhookSecret;
    this.log = log;
  }

  /** One call, its answer parsed; a failure is logged here as a warning with its cause (never a secret), once. */
  async #call<S extends z.ZodType>(what: string, schema: S, request: () => Promise<unknown>): Promise<z.output<S>> {
    let answer: unknown;
    try {
      answer = await request();
    } catch (error) {
      const failure = isUnparseableAnswer(error)
        ? new PaymentsAnswerInvalidError(`The payment provider's answer to ${what} could not be parsed`, {
            cause: error,
          })
        : new PaymentsUnavailableError(`The payment provider failed to ${what}`, { cause: error });
      this.log.warn({ payment_call: what, cause: describeCallFailure(error) }, failure.message);
      throw failure;
    }
    const parsed = schema.safeParse(answer);
    if (!parsed.success) {
      const failure = new PaymentsAnswerInvalidError(`The payment provider's answer to ${what} was not understood`, {
        cause: parsed.error,
      });
      this.log.warn({ payment_call: what, cause: describeUnexpectedAnswer(parsed.error) }, failure.message);
      throw failure;
    }
    return parsed.data;
  }

  /** `idempotencyKey` is ours and deterministic per order, so a repeated call returns the same session. */
  createCheckoutSession(params: Stripe.Checkout.SessionCreateParams, idempotencyKey: string): Promise<CheckoutSession> {
    return this.#call("create a checkout session", CheckoutSessionSchema, () =>
      this.stripe.checkout.sessions.create(params, { idempotencyKey }),
    );
  }

  /** The session with its line items, or `null` when the provider has no such session. */
  async retrieveCheckoutSession(sessionId: string): Promise<CheckoutSession | null> {
    let missing = false;
    const session = await this.#call("read a checkout session", CheckoutSessionSchema.nullable(), async () => {
      try {
        return await this.stripe.checkout.sessions.retrieve(sessionId, { expand: ["line_items"] });
      } catch (error) {
        if (!isMissing(error)) throw error;
        missing = true;
        return null;
      }
    });
    return missing ? null : session;
  }

  createPaymentIntent(params: Stripe.PaymentIntentCreateParams, idempotencyKey: string): Promise<PaymentIntent> {
    return this.#call("create a payment intent", PaymentIntentSchema, () =>
      this.stripe.paymentIntents.create(params, { idempotencyKey }),
    );
  }

  async retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntent | null> {
    let missing = false;
    const intent = await this.#call("read a payment intent", PaymentIntentSchema.nullable(), async () => {
      try {
        return await this.stripe.paymentIntents.retrieve(paymentIntentId);
      } catch (error) {
        if (!isMissing(error)) throw error;
        missing = true;
        return null;
      }
    });
    return missing ? null : intent;
  }

  /**
   * The receipt page of a payment's latest charge, or `null` when it has none (not yet charged, or no
   * such payment). Stripe keeps `receipt_url` on the charge, not on the payment intent:
   * https://docs.stripe.com/api/charges/object#charge_object-receipt_url
   */
  async receiptUrl(paymentIntentId: string): Promise<string | null> {
    const intent = await this.#call("read a payment's receipt", PaymentWithChargeSchema.nullable(), async () => {
      try {
        return await this.stripe.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge"] });
      } catch (error) {
        if (!isMissing(error)) throw error;
        return null;
      }
    });
    const charge = intent?.latest_charge;
    return typeof charge === "object" && charge !== null ? (charge.receipt_url ?? null) : null;
  }

  /** A full refund of the payment; the key makes a repeated request refund once. */
  createRefund(
    paymentIntentId: string,
    idempotencyKey: string,
    metadata: Record<string, string> = {},
  ): Promise<Refund> {
    return this.#call("refund a payment", RefundSchema, () =>
      this.stripe.refunds.create({ payment_intent: paymentIntentId, metadata }, { idempotencyKey }),
    );
  }

  /**
   * Verifies the `Stripe-Signature` header over the exact bytes received, with the SDK's default
   * 300 s tolerance (https://docs.stripe.com/webhooks#verify-events), then parses the envelope.
   * The SDK only refuses a timestamp too far in the past; one more than the same 300 s in the
   * future is refused here too, so a signature made ahead of time cannot be replayed for longer.
   * Stripe sends one `t=`; a header with several is refused before anything else, since the SDK
   * signs over the last while a reader of the first would judge another time than the one signed.
   */
  verifyWebhook(rawBody: Uint8Array, signature: string): PaymentEvent {
    if (!this.webhookSecret) throw new PaymentsUnavailableError("STRIPE_WEBHOOK_SECRET is not configured");
    const signedAt = signatureTimestamps(signature);
    if (signedAt.length !== 1)
      throw new WebhookSignatureError(`the header must carry exactly one t= timestamp, not ${signedAt.length}`);
    let event: unknown;
    try {
      event = this.stripe.webhooks.constructEvent(Buffer.from(rawBody), signature, this.webhookSecret);
    } catch (error) {
      throw new WebhookSignatureError(error instanceof Error ? error.message : "the signature does not verify");
    }
    if (Number.parseInt(signedAt[0] ?? "", 10) > Date.now() / 1000 + WEBHOOK_TOLERANCE_SECONDS)
      throw new WebhookSignatureError("the signature is dated more than 5 minutes in the future");
    const parsed = PaymentEventSchema.safeParse(event);
    if (!parsed.success) throw new WebhookSignatureError("the event is not a payment-provider event");
    return parsed.data;
  }

  get webhooksConfigured(): boolean {
    return Boolean(this.webhookSecret);
  }
}
