import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "../../helpers/agents.ts";
import { createTestApp } from "../../helpers/app.ts";
import { captureLog } from "../../helpers/log-lines.ts";
import { countRows, createStoreApp, type StoreTestApp, sessionKey } from "../../helpers/store.ts";

let store: StoreTestApp;
const logged = captureLog("warn");
beforeAll(async () => (store = await createStoreApp({ log: logged.log })));
afterAll(() => store.close());

const capabilityIds = async (app: { request: (path: string) => Promise<Response> | Response }) =>
  ((await (await app.request("/capabilities.json")).json()) as { capabilities: { id: string }[] }).capabilities.map(
    (capability) => capability.id,
  );

describe("POST /api/v1/store/{id}/checkout", () => {
  it("creates a hosted checkout session priced from the catalogue and records a pending order", async () => {
    const response = await store.checkout("agent-readiness-checklist", { email: "ada@example.com" });
    expect(response.status).toBe(201);
    expect(response.headers.get("ratelimit-policy")).toBe('"store-checkout";q=10;w=60');
    const body = (await response.json()) as { id: string; url: string; expires_at: string };
    expect(body.id).toMatch(/^cs_test_/);
    expect(body.url).toBe(`${store.fake.url}/pay/${body.id}`);
    expect(Date.parse(body.expires_at)).toBeGreaterThan(Date.now());
    const session = store.fake.state.sessionJson(body.id, true);
    expect(session).toMatchObject({
      amount_total: 1900,
      currency: "eur",
      customer_email: "ada@example.com",
      metadata: { purpose: "store", product_id: "agent-readiness-checklist" },
    });
    expect(String(session.success_url)).toBe(`${store.t.config.siteUrl}/store/return?session_id={CHECKOUT_SESSION_ID}`);
    expect(store.fake.state.sessions.get(body.id)?.intentMetadata).toMatchObject({
      purpose: "store",
      order_id: expect.stringMatching(/^ord_/),
    });
    expect(
      await countRows(store, "store_orders", "session_hash = ? AND state = 'pending'", [sessionKey(store, body.id)]),
    ).toBe(1);
  });

  it("accepts no body at all", async () => {
    const response = await store.t.send("POST", "/api/v1/store/markdown-for-agents-guide/checkout", undefined, {
      "x-forwarded-for": "198.18.0.1",
    });
    expect(response.status).toBe(201);
  });

  it("refuses a client-supplied price or amount with 422 and asks the provider for nothing", async () => {
    const calls = store.fake.calls.length;
    const problem = await expectProblem(
      await store.checkout("agent-readiness-checklist", {
        amount: 1,
        price: { amount: 1, currency: "eur" },
        unit_amount: 1,
      }),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: "#/amount", detail: "is not an allowed property" },
        { pointer: "#/price", detail: "is not an allowed property" },
        { pointer: "#/unit_amount", detail: "is not an allowed property" },
      ]),
    );
    expect(store.fake.calls.length).toBe(calls);
  });

  it("buys items with a file one at a time, and charges a fee per unit", async () => {
    const problem = await expectProblem(
      await store.checkout("agent-readiness-checklist", { quantity: 2 }),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/quantity", detail: "must be 1: items with a file are bought one at a time" },
    ]);
    const fee = (await (await store.checkout("manual-review", { quantity: 3 })).json()) as { id: string };
    expect(store.fake.state.sessionJson(fee.id, false).amount_total).toBe(3 * 24000);
    await expectProblem(await store.checkout("manual-review", { quantity: 11 }), 422, "validation-failed");
  });

  it("answers 404 for an unknown or unpublished product and 409 for one not on sale or sold out", async () => {
    await expectProblem(await store.checkout("no-such-thing"), 404, "not-found");
    await expectProblem(await store.checkout("team-workshop"), 404, "not-found");
    await expectProblem(await store.checkout("api-hygiene-workbook"), 409, "not-on-sale");
    await store.t.services.database.client.execute(
      "INSERT INTO store_stock (product_id, sold) VALUES ('field-notes-launch-edition', 25)",
    );
    await expectProblem(await store.checkout("field-notes-launch-edition"), 409, "sold-out");
    await store.t.services.database.client.execute("DELETE FROM store_stock");
  });

  it("answers 503 and records no order when the provider fails or does not answer", async () => {
    const before = await countRows(store, "store_orders");
    store.fake.failNext(4, "error");
    await expectProblem(await store.checkout("agent-readiness-checklist"), 503, "service-unavailable");
    store.fake.failNext(4, "hang");
    const started = Date.now();
    const response = await store.checkout("agent-readiness-checklist");
    await expectProblem(response, 503, "service-unavailable");
    expect(response.headers.get("retry-after")).toBe("30");
    expect(Date.now() - started).toBeLessThan(5_000);
    store.fake.failNext(0);
    expect(await countRows(store, "store_orders")).toBe(before);
  });

  it("answers 502 when the provider's answer does not parse, 503 when it fails, and logs each as a warning with its cause", async () => {
    const before = await countRows(store, "store_orders");
    logged.clear();
    store.fake.failNext(1, "malformed");
    const malformed = await expectProblem(
      await store.checkout("agent-readiness-checklist"),
      502,
      "payment-provider-answer-invalid",
    );
    expect(malformed.detail).toContain("nothing was charged");
    store.fake.failNext(1, "not-json");
    await expectProblem(await store.checkout("agent-readiness-checklist"), 502, "payment-provider-answer-invalid");
    store.fake.failNext(4, "error");
    await expectProblem(await store.checkout("agent-readiness-checklist"), 503, "service-unavailable");
    store.fake.failNext(0);
    expect(await countRows(store, "store_orders")).toBe(before);

    const warnings = logged.lines().filter((line) => line.level === "warn");
    expect(warnings.map((line) => [line.msg, line.payment_call])).toEqual([
      ["The payment provider's answer to create a checkout session was not understood", "create a checkout session"],
      ["The payment provider's answer to create a checkout session could not be parsed", "create a checkout session"],
      ["The payment provider failed to create a checkout session", "create a checkout session"],
    ]);
    expect(warnings[0]?.cause).toMatchObject({
      type: "unexpected_answer",
      issues: expect.arrayContaining(["id: Invalid input: expected string, received number"]),
    });
    expect(warnings[1]?.cause).toMatchObject({
      type: "StripeAPIError",
      message: "Invalid JSON received from the Stripe API",
    });
    expect(warnings[2]?.cause).toMatchObject({
      type: "StripeAPIError",
      status: 500,
      message: "The fake was told to fail this call.",
    });
    // Neither the API key nor the client secret in the malformed answer reaches a line.
    expect(JSON.stringify(warnings)).not.toMatch(/sk_test_store|_secret_/);
  });

  it("gives the same session to a retry with the same Idempotency-Key and body", async () => {
    const headers = { "idempotency-key": "retry-me-1", "x-forwarded-for": "198.18.0.2" };
    const first = (await (
      await store.t.send(
        "POST",
        "/api/v1/store/discovery-starter-kit/checkout",
        { email: "grace@example.com" },
        headers,
      )
    ).json()) as { id: string };
    const second = (await (
      await store.t.send(
        "POST",
        "/api/v1/store/discovery-starter-kit/checkout",
        { email: "grace@example.com" },
        headers,
      )
    ).json()) as { id: string };
    expect(second.id).toBe(first.id);
    expect(await countRows(store, "store_orders", "session_hash = ?", [sessionKey(store, first.id)])).toBe(1);
    const other = (await (
      await store.t.send(
        "POST",
        "/api/v1/store/discovery-starter-kit/checkout",
        { email: "other@example.com" },
        headers,
      )
    ).json()) as { id: string };
    expect(other.id).not.toBe(first.id);
  });

  it("answers 429 with Retry-After after 10 checkouts a minute from one address", async () => {
    const headers = { "x-forwarded-for": "198.18.0.99" };
    for (let i = 0; i < 10; i++)
      expect((await store.t.send("POST", "/api/v1/store/nope/checkout", undefined, headers)).status).toBe(404);
    const problem = await store.t.send("POST", "/api/v1/store/agent-readiness-checklist/checkout", undefined, headers);
    await expectProblem(problem, 429, "rate-limited");
    expect(Number(problem.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("is advertised in /capabilities.json while payments are configured", async () => {
    expect(await capabilityIds(store.t.app)).toEqual(expect.arrayContaining(["store.checkout", "store.session"]));
  });
});

describe("without STRIPE_SECRET_KEY", () => {
  it("answers 503 to checkout and drops the capability", async () => {
    const t = await createTestApp();
    try {
      const response = await t.send("POST", "/api/v1/store/agent-readiness-checklist/checkout", {});
      const problem = await expectProblem(response, 503, "service-unavailable");
      expect(response.headers.get("retry-after")).toBe("3600");
      const ids = await capabilityIds(t.app);
      expect(ids).not.toContain("store.checkout");
      expect(ids).not.toContain("store.session");
      expect(ids).toContain("store.download");
      // Reached without a gateway all the same, the checkout itself refuses in the same words.
      const refusal: unknown = await t.services.store.checkout
        .start("agent-readiness-checklist", {})
        .catch((error) => error);
      expect(refusal).toMatchObject({
        code: "service-unavailable",
        detail: problem.detail,
        options: { headers: { "Retry-After": "3600" } },
      });
    } finally {
      await t.close();
    }
  });
});
