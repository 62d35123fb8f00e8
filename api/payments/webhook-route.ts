import { readLimited } from "../platform/body.ts";
import { jsonResponse } from "../platform/http/responses.ts";
import { type HttpRoute, httpOnlyRoute } from "../platform/operations/http-routes.ts";
import { ApiProblem } from "../platform/problem.ts";
import { PaymentsAnswerInvalidError, PaymentsUnavailableError } from "./provider-failure.ts";
import { type PaymentsGateway, WebhookSignatureError } from "./stripe-client.ts";
import type { PaymentEvent } from "./stripe-objects.ts";
import type { PaymentWebhooks } from "./webhooks.ts";

/** Stripe events are a few kilobytes; anything near this is not one. */
export const WEBHOOK_LIMIT_BYTES = 1_048_576;

/**
 * `POST /api/v1/webhooks/stripe`: the raw bytes are verified against `Stripe-Signature` before
 * anything is parsed (https://docs.stripe.com/webhooks#verify-events). 2xx only once the event and
 * its effect are committed; 400 for a bad signature (nothing changes); 503 when the provider or the
 * database cannot be reached, so Stripe delivers the event again.
 */
export function paymentWebhookRoute(payments: PaymentsGateway | null, webhooks: PaymentWebhooks): HttpRoute {
  return httpOnlyRoute("receiveStripeWebhook", async (event) => {
    if (!payments?.webhooksConfigured) {
      throw new ApiProblem(
        "service-unavailable",
        "The webhook signing secret (STRIPE_WEBHOOK_SECRET) is not configured.",
        { headers: { "Retry-After": "3600" } },
      );
    }
    const raw = await readLimited(event, WEBHOOK_LIMIT_BYTES);
    const signature = event.req.headers.get("stripe-signature");
    if (!signature) throw new ApiProblem("invalid-webhook-signature", "The Stripe-Signature header is missing.");
    let received: PaymentEvent;
    try {
      received = payments.verifyWebhook(raw, signature);
    } catch (error) {
      if (error instanceof WebhookSignatureError)
        throw new ApiProblem(
          "invalid-webhook-signature",
          "The signature does not verify for these bytes, its timestamp is more than 5 minutes old or ahead, or the header carries more than one t= timestamp.",
        );
      throw error;
    }
    try {
      const receipt = await webhooks.receive(received);
      return jsonResponse(event, { received: true, duplicate: receipt.duplicate });
    } catch (error) {
      if (error instanceof PaymentsAnswerInvalidError) {
        throw new ApiProblem(
          "payment-provider-answer-invalid",
          "The payment provider's answer could not be understood, so this event could not be confirmed; deliver it again later.",
          { headers: { "Retry-After": "60" } },
        );
      }
      if (error instanceof PaymentsUnavailableError) {
        throw new ApiProblem(
          "service-unavailable",
          "The payment provider could not be reached to confirm this event; deliver it again later.",
          { headers: { "Retry-After": "60" } },
        );
      }
      throw error;
    }
  });
}
