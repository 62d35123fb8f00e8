import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeStripe, startFakeStripe } from "./fake-server.ts";

let fake: FakeStripe;
let stripe: Stripe;
beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: "whsec_fake" });
  const { hostname, port } = new URL(fake.url);
  stripe = new Stripe("sk_test_fake", { host: hostname, port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(() => fake.close());

const params = (amount: number): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  line_items: [{ quantity: 1, price_data: { currency: "eur", unit_amount: amount, product_data: { name: "Thing" } } }],
  success_url: "http://127.0.0.1/ok?session_id={CHECKOUT_SESSION_ID}",
});

describe("the fake provider, through the real SDK", () => {
  it("replays the first answer for a reused idempotency key and refuses it with other parameters", async () => {
    const first = await stripe.checkout.sessions.create(params(100), { idempotencyKey: "same-key" });
    const again = await stripe.checkout.sessions.create(params(100), { idempotencyKey: "same-key" });
    expect(again.id).toBe(first.id);
    await expect(stripe.checkout.sessions.create(params(200), { idempotencyKey: "same-key" })).rejects.toBeInstanceOf(
      Stripe.errors.StripeIdempotencyError,
    );
  });

  it("answers 404 resource_missing for an unknown session, and expands line items on request", async () => {
    await expect(stripe.checkout.sessions.retrieve("cs_test_nope")).rejects.toMatchObject({
      statusCode: 404,
      code: "resource_missing",
    });
    const created = await stripe.checkout.sessions.create(params(300));
    const read = await stripe.checkout.sessions.retrieve(created.id, { expand: ["line_items"] });
    expect(read.line_items?.data[0]).toMatchObject({ quantity: 1, amount_total: 300 });
  });

  it("signs the events of its controls so the SDK verifies them", async () => {
    const created = await stripe.checkout.sessions.create(params(400));
    const signed = await fake.pay(created.id);
    const event = stripe.webhooks.constructEvent(signed.payload, signed.header, "whsec_fake");
    expect(event.type).toBe("checkout.session.completed");
    expect((await stripe.checkout.sessions.retrieve(created.id)).payment_status).toBe("paid");
  });

  it("serves a hosted page whose form pays and returns to success_url", async () => {
    const created = await stripe.checkout.sessions.create(params(500));
    const page = await fetch(created.url ?? "");
    expect(await page.text()).toContain('<button type="submit" name="outcome" value="pay">Pay</button>');
    const paid = await fetch(created.url ?? "", {
      method: "POST",
      body: new URLSearchParams({ email: "b@example.com", outcome: "pay" }),
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://127.0.0.1/ok?session_id=${created.id}`);
  });

  it("creates and confirms payment intents, for report unlocks and credit packs", async () => {
    const intent = await stripe.paymentIntents.create(
      { amount: 900, currency: "eur", metadata: { report_id: "r1" } },
      { idempotencyKey: "pi-1" },
    );
    expect(intent.client_secret).toMatch(/^pi_.+_secret_/);
    const signed = await fake.succeedIntent(intent.id);
    expect(signed.event.type).toBe("payment_intent.succeeded");
    expect((await stripe.paymentIntents.retrieve(intent.id)).status).toBe("succeeded");
  });

  it("answers a call with JSON that is not the object asked for, or with no JSON at all, when told to", async () => {
    fake.failNext(1, "malformed");
    expect(await stripe.checkout.sessions.retrieve("cs_test_any")).toMatchObject({ id: 42, object: "surprise" });
    fake.failNext(1, "not-json");
    await expect(stripe.checkout.sessions.retrieve("cs_test_any")).rejects.toThrow(
      "Invalid JSON received from the Stripe API",
    );
    await expect(stripe.checkout.sessions.retrieve("cs_test_nope")).rejects.toMatchObject({ statusCode: 404 });
  });

  it("gives a paid checkout's charge a receipt page, reached by expanding the payment's latest charge", async () => {
    const created = await stripe.checkout.sessions.create(params(700));
    await fake.pay(created.id, { email: "r@example.com" });
    const intentId = (await stripe.checkout.sessions.retrieve(created.id)).payment_intent;
    expect(typeof intentId).toBe("string");
    const intent = await stripe.paymentIntents.retrieve(String(intentId), { expand: ["latest_charge"] });
    const charge = intent.latest_charge;
    if (typeof charge !== "object" || charge === null) throw new Error("latest_charge was not expanded");
    expect(charge.receipt_url).toMatch(new RegExp(`^${fake.url}/receipts/ch_`));
    expect((await stripe.charges.retrieve(charge.id)).receipt_url).toBe(charge.receipt_url);
    const receipt = await fetch(charge.receipt_url ?? "");
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain("7.00 EUR");
  });
});
