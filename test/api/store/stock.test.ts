import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem } from "../../helpers/agents.ts";
import { countRows, createStoreApp, readSession, type StoreTestApp } from "../../helpers/store.ts";

let store: StoreTestApp;
beforeAll(async () => (store = await createStoreApp()));
afterAll(() => store.close());

const PRODUCT = "field-notes-launch-edition";
const sold = async () =>
  Number(
    (
      await store.t.services.database.client.queryOne({
        sql: "SELECT sold FROM store_stock WHERE product_id = ?",
        args: [PRODUCT],
      })
    )?.sold,
  );

describe("the last unit, bought by two buyers at once", () => {
  it("goes to the first fulfilment; the second payment is refunded in full automatically", async () => {
    // 25 copies on sale; 24 already sold.
    await store.t.services.database.client.execute({
      sql: "INSERT INTO store_stock (product_id, sold) VALUES (?, 24)",
      args: [PRODUCT],
    });
    store.autoDeliver = false;
    const first = await store.buy(PRODUCT, { email: "first@example.com" });
    const second = await store.buy(PRODUCT, { email: "second@example.com" });
    const paid = [await store.fake.pay(first), await store.fake.pay(second)];
    store.autoDeliver = true;
    const answers = await Promise.all(paid.map((signed) => store.deliver(signed)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await store.fake.idle();

    const sessions = [await readSession(store, first), await readSession(store, second)];
    const states = sessions.map((session) => session.delivery.state).sort();
    expect(states).toEqual(["fulfilled", "refunded"]);
    const loser = sessions.find((session) => session.delivery.state === "refunded");
    expect(loser?.entitlement).toEqual({ active: false, expires_at: null });
    expect(loser?.download_url).toBeUndefined();
    expect(await sold()).toBe(25);

    // The provider refunded the loser's payment, once, in full; its charge.refunded event changed nothing further.
    expect(store.fake.state.refunds.size).toBe(1);
    const refund = [...store.fake.state.refunds.values()][0];
    const loserIntent = store.fake.state.sessionJson(loser?.id ?? "", false).payment_intent;
    expect(refund).toMatchObject({ payment_intent: loserIntent, amount: 4900, metadata: { reason: "sold-out" } });
    expect((await readSession(store, loser?.id ?? "")).delivery.state).toBe("refunded");
    expect(await countRows(store, "mail_outbox", "kind = 'store-delivery'")).toBe(1);
    expect(await countRows(store, "mail_outbox", "kind = 'store-sold-out-refund'")).toBe(1);
    await expectProblem(
      await store.t.send("GET", `/api/v1/store/sessions/${loser?.id ?? ""}/download`),
      404,
      "not-found",
    );
  });

  it("refuses new checkouts with 409 sold-out once the stock is gone", async () => {
    await expectProblem(await store.checkout(PRODUCT), 409, "sold-out");
  });

  it("retries an automatic refund the provider refused at first, until it goes through", async () => {
    await store.t.services.database.client.execute({
      sql: "UPDATE store_stock SET sold = 24 WHERE product_id = ?",
      args: [PRODUCT],
    });
    store.autoDeliver = false;
    const winner = await store.buy(PRODUCT, { email: "winner@example.com" });
    const late = await store.buy(PRODUCT, { email: "late@example.com" });
    await store.fake.pay(winner);
    const latePaid = await store.fake.pay(late);
    expect((await readSession(store, winner)).delivery.state).toBe("fulfilled");
    const refundsBefore = store.fake.state.refunds.size;
    store.fake.failNext(2, "error", "/v1/refunds");
    expect((await store.deliver(latePaid)).status).toBe(200);
    expect(store.fake.state.refunds.size).toBe(refundsBefore);
    expect(await countRows(store, "store_fulfilments", "outcome = 'sold-out' AND refunded_at IS NULL")).toBe(1);
    expect(await store.t.services.store.fulfilment.retryPendingRefunds()).toBe(1);
    expect(store.fake.state.refunds.size).toBe(refundsBefore + 1);
    expect(await store.t.services.store.fulfilment.retryPendingRefunds()).toBe(0);
    await store.fake.idle();
  });
});
