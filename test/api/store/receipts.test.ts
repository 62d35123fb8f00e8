import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { maskEmail } from "../../../api/store/purchase-sessions.ts";
import { pageServicesFor } from "../../../api/wiring/page-services.ts";
import { createStoreApp, type StoreTestApp, sessionKey } from "../../helpers/store.ts";

// What the checkout return page shows besides the purchase: the order number, where the e-mail
// went (masked: the page's address is the only key to it) and the provider's receipt.
let store: StoreTestApp;
beforeAll(async () => {
  store = await createStoreApp();
});
afterAll(() => store?.close());

const pages = () => pageServicesFor(store.t.services, "203.0.113.200");

describe("the receipt on the checkout return page", () => {
  it("gives a paid purchase its order number, the masked address the link went to, and the provider's receipt", async () => {
    const sessionId = await store.buy("agent-readiness-checklist");
    await store.fake.pay(sessionId, { email: "shopper@example.com" });
    const purchase = await pages().purchaseSession(sessionId);
    expect(purchase.ok && purchase.value.delivery.state).toBe("fulfilled");
    const receipt = await pages().purchaseReceipt(sessionId);
    expect(receipt?.order_number).toMatch(/^ord_[A-Za-z0-9]+$/);
    expect(receipt?.sent_to).toBe("s•••@example.com");
    expect(receipt?.receipt_url).toMatch(new RegExp(`^${store.fake.url}/receipts/ch_`));
    const page = await fetch(receipt?.receipt_url ?? "");
    expect(await page.text()).toContain("19.00 EUR");
  });

  it("has an order number but no receipt before the payment", async () => {
    const sessionId = await store.buy("agent-readiness-checklist", { email: "early@example.com" });
    const receipt = await pages().purchaseReceipt(sessionId);
    expect(receipt).toEqual({
      order_number: expect.stringMatching(/^ord_/),
      sent_to: "e•••@example.com",
      receipt_url: null,
    });
  });

  it("still shows the order when the provider cannot give the receipt", async () => {
    const sessionId = await store.buy("markdown-for-agents-guide");
    await store.fake.pay(sessionId, { email: "later@example.com" });
    await pages().purchaseSession(sessionId);
    store.fake.failNext(2, "error", `/v1/payment_intents/${await paymentIntentOf(sessionId)}`);
    const receipt = await pages().purchaseReceipt(sessionId);
    expect(receipt).toMatchObject({ sent_to: "l•••@example.com", receipt_url: null });
  });

  it("knows nothing of a session id that is not ours", async () => {
    expect(await pages().purchaseReceipt("cs_test_unknown")).toBeNull();
    expect(await pages().purchaseReceipt("not-a-session")).toBeNull();
  });
});

async function paymentIntentOf(sessionId: string): Promise<string> {
  const row = await store.t.services.database.client.queryOne({
    sql: "SELECT payment_intent_id FROM store_orders WHERE session_hash = ?",
    args: [sessionKey(store, sessionId)],
  });
  return String(row?.payment_intent_id);
}

describe("masking an e-mail address", () => {
  it.each([
    ["shopper@example.com", "s•••@example.com"],
    ["a@b.example", "a•••@b.example"],
    ["odd@name@example.com", "o•••@example.com"],
    ["nobody", "•••"],
  ])("shows %s as %s", (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});
