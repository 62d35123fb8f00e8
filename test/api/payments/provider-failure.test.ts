import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { describeCallFailure } from "../../../api/payments/provider-failure.ts";

describe("what a failed payment-provider call logs", () => {
  it("keeps the provider's error type, status, code and request id, and drops API keys and client secrets from its message", () => {
    const refused = new Stripe.errors.StripeAuthenticationError({
      message: "Invalid API Key provided: sk_live_51Hx9AbCdEf**********wxyz",
      type: "invalid_request_error",
      statusCode: 401,
      requestId: "req_123",
    });
    expect(describeCallFailure(refused)).toEqual({
      type: "StripeAuthenticationError",
      status: 401,
      request_id: "req_123",
      message: "Invalid API Key provided: sk_live_[redacted]",
    });
    const echoed = new Stripe.errors.StripeInvalidRequestError({
      message: "No such payment_intent: 'pi_3Abc_secret_Zyx987'; whsec_abc123 does not match",
      type: "invalid_request_error",
      code: "resource_missing",
      statusCode: 404,
    });
    expect(describeCallFailure(echoed)).toMatchObject({
      code: "resource_missing",
      message: "No such payment_intent: 'pi_3Abc_secret_[redacted]'; whsec_[redacted] does not match",
    });
  });

  it("logs the message of any other failure, without secrets", () => {
    expect(describeCallFailure(new Error("connect ECONNREFUSED 127.0.0.1:1 (rk_test_abc)"))).toEqual({
      message: "connect ECONNREFUSED 127.0.0.1:1 (rk_test_[redacted])",
    });
  });
});
