import type Stripe from "stripe";
import type { z } from "zod";
import { ApiProblem } from "../platform/problem.ts";

/**
 * The provider could not give an answer we can act on: unreachable, timed out, a 5xx, or a refusal
 * of our own request. The caller answers 503 and changes nothing.
 */
export class PaymentsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PaymentsUnavailableError";
  }
}

/**
 * The provider answered, but with something we cannot read: not JSON, or not the object asked for.
 * A kind of unavailability (nothing was done), answered 502: the fault is upstream, not ours.
 */
export class PaymentsAnswerInvalidError extends PaymentsUnavailableError {
  override name = "PaymentsAnswerInvalidError";
}

/** The client's answer to a provider failure; what went wrong in detail is in the log. */
export function paymentsProblem(error: PaymentsUnavailableError): ApiProblem {
  if (error instanceof PaymentsAnswerInvalidError)
    return new ApiProblem(
      "payment-provider-answer-invalid",
      "The payment provider's answer could not be understood; nothing was charged. Try again shortly.",
      { headers: { "Retry-After": "30" } },
    );
  return new ApiProblem(
    "service-unavailable",
    "The payment provider is not answering; nothing was charged. Try again shortly.",
    { headers: { "Retry-After": "30" } },
  );
}

// What the provider's own messages can carry: API keys (Stripe quotes part of a wrong one),
// webhook signing secrets and the client secrets of payments.
const SECRETS: readonly [RegExp, string][] = [
  [/\b([sr]k_(?:live|test)_)[A-Za-z0-9*]+/g, "$1[redacted]"],
  [/\bwhsec_[A-Za-z0-9]+/g, "whsec_[redacted]"],
  [/(_secret_)[A-Za-z0-9]+/g, "$1[redacted]"],
];

function withoutSecrets(text: string): string {
  return SECRETS.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

/**
 * An error the SDK threw, of this type (`StripeError` for any): each of its error classes names
 * itself in `type`. Read that way rather than with `instanceof`, so that this module does not load
 * the SDK (stripe-client.ts loads it only when payments are configured).
 */
export function isStripeError(error: unknown, type = "StripeError"): error is Stripe.errors.StripeError {
  if (!(error instanceof Error) || !("type" in error) || typeof error.type !== "string") return false;
  return type === "StripeError" ? error.type.startsWith("Stripe") : error.type === type;
}

/** The SDK reports a body it could not parse as JSON as an API error with this message. */
export function isUnparseableAnswer(error: unknown): boolean {
  return isStripeError(error, "StripeAPIError") && error.message.startsWith("Invalid JSON received");
}

/** Log fields for a failed call: the provider's error type, status, code and request id, and its message without secrets. */
export function describeCallFailure(error: unknown): Record<string, unknown> {
  if (isStripeError(error))
    return {
      type: error.type,
      ...(error.statusCode === undefined ? {} : { status: error.statusCode }),
      ...(error.code === undefined ? {} : { code: error.code }),
      ...(error.requestId === undefined ? {} : { request_id: error.requestId }),
      message: withoutSecrets(error.message),
    };
  return { message: withoutSecrets(error instanceof Error ? error.message : String(error)) };
}

/** Log fields for an answer that is not the object asked for: where and how it differs, never the values it holds. */
export function describeUnexpectedAnswer(error: z.ZodError): Record<string, unknown> {
  return {
    type: "unexpected_answer",
    issues: error.issues.slice(0, 10).map((issue) => `${issue.path.join(".") || "(answer)"}: ${issue.message}`),
  };
}
