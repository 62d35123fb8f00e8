import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentCodeId } from "../../../api/checks/fulfilment.ts";
import { creditLedger, findCreditCode } from "../../../api/checks/sql/credits.ts";
import { findCheckPayment } from "../../../api/checks/sql/payments.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { startAgentReadySite } from "../../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../../fixtures/sites/serve.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { creditCodeIn } from "../../helpers/credit-code.ts";
import { copyReport, readReport } from "../../helpers/reports.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "../../helpers/smtp.ts";
import { countRows, createStoreApp, nextAddress, type StoreTestApp } from "../../helpers/store.ts";

let site: FixtureSite;
let smtp: SmtpSink;
let store: StoreTestApp;
let templateId: string | undefined;

const checkout = (id: string, body: unknown) =>
  store.t.send("POST", `/api/v1/checks/${id}/checkout`, body, { "x-forwarded-for": nextAddress() });
const redeem = (id: string, code: string) =>
  store.t.send("POST", `/api/v1/checks/${id}/redeem`, { code }, { "x-forwarded-for": nextAddress() });
const db = () => store.t.services.database.client;
const reports = () => ({ db: db(), keys: store.t.services.keys });

/** A new locked report (a copy of one real check of the fixture site). */
async function newReport(): Promise<string> {
  if (!templateId) throw new Error("no report to copy");
  return copyReport(reports(), templateId);
}

/** Starts a payment through the API and returns its intent id (from the client secret). */
async function startPayment(
  id: string,
  body: Record<string, unknown>,
): Promise<{ intentId: string; body: Record<string, unknown> }> {
  const response = await checkout(id, body);
  expect(response.status).toBe(200);
  const started = (await response.json()) as Record<string, unknown> & { client_secret: string };
  expect(validateAgainstPublishedSchema("check-checkout-result", started)).toEqual([]);
  return { intentId: started.client_secret.split("_secret_")[0] ?? "", body: started };
}

/** Delivers what the outbox holds and returns the messages sent to `to`. */
async function mailTo(to: string): Promise<string[]> {
  await store.t.services.mail.deliverDue();
  return smtp.received
    .filter((message) => message.to.includes(to))
    .map((message) => mimePart(message.raw, "text/plain"));
}

beforeAll(async () => {
  site = await startAgentReadySite();
  smtp = await startSmtpSink();
  store = await createStoreApp({ env: { CHECKS_ALLOWED_TARGETS: site.hostPort, SMTP_URL: smtp.url } });
  const ran = await store.t.send(
    "POST",
    "/api/v1/checks",
    { domain: site.origin },
    { "x-forwarded-for": nextAddress() },
  );
  templateId = ((await ran.json()) as { id: string }).id;
});
afterAll(async () => {
  await store.close();
  await smtp.close();
  await site.close();
});

describe("POST /api/v1/checks/{id}/checkout", () => {
  it("answers a client secret for the catalogue's price, unlocks on payment_intent.succeeded and e-mails a receipt", async () => {
    const id = await newReport();
    const { intentId, body } = await startPayment(id, { purchase: "unlock", email: "ada@example.com" });
    expect(body).toMatchObject({ amount: 900, currency: "eur", purchase: "unlock", pack: null, credits: 1 });
    expect(store.fake.state.intents.get(intentId)).toMatchObject({
      amount: 900,
      currency: "eur",
      metadata: { purpose: "check", report_id: id, purchase: "unlock" },
    });
    // Asked again (a double click): the same payment, not a second one.
    expect((await startPayment(id, { purchase: "unlock", email: "ada@example.com" })).intentId).toBe(intentId);
    expect((await readReport(reports(), id))?.unlocked_at).toBeNull();

    await store.fake.succeedIntent(intentId);
    const report = await readReport(reports(), id);
    expect(report?.unlock_source).toBe("payment");
    const read = (await (await store.t.send("GET", `/api/v1/checks/${id}`)).json()) as {
      locked: boolean;
      details?: unknown[];
    };
    expect(read.locked).toBe(false);
    expect(read.details?.length).toBeGreaterThan(30);
    expect(await findCheckPayment(db(), intentId)).toMatchObject({
      status: "succeeded",
      amount: 900,
      report_id: store.t.services.keys.hash("report", id),
    });
    const [receipt, ...more] = await mailTo("ada@example.com");
    expect(more).toEqual([]);
    expect(receipt).toContain("You paid €9.00");
    expect(receipt).toContain(`/checks/${id}`);
    expect(receipt).not.toMatch(/credit code/i);
    await expectProblem(await checkout(id, { purchase: "unlock", email: "ada@example.com" }), 409, "already-unlocked");
  });

  it("sells a pack: one credit unlocks the report, the code for the rest is e-mailed once, and works on another report", async () => {
    const id = await newReport();
    const { intentId, body } = await startPayment(id, { purchase: "pack", pack: "pack-5", email: "grace@example.com" });
    expect(body).toMatchObject({ amount: 3500, purchase: "pack", pack: "pack-5", credits: 5 });
    const succeeded = await store.fake.succeedIntent(intentId);
    // The provider delivers again, and a second event for the same payment arrives: nothing twice.
    expect((await store.deliver(succeeded)).status).toBe(200);
    expect((await store.deliver(store.fake.sign({ ...succeeded.event, id: `evt_again${Date.now()}` }))).status).toBe(
      200,
    );

    expect((await readReport(reports(), id))?.unlock_source).toBe("payment");
    expect(await countRows(store, "credit_codes", "source_ref = ?", [intentId])).toBe(1);
    const code = await findCreditCode(db(), { id: paymentCodeId(intentId) });
    expect(code).toMatchObject({ credits_total: 5, credits_remaining: 4 });
    const ledger = await creditLedger(db(), code?.id ?? "");
    expect(ledger.map((entry) => [entry.reason, entry.delta])).toEqual([
      ["issued", 5],
      ["redeemed", -1],
    ]);

    const messages = await mailTo("grace@example.com");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("4 credits left (of 5)");
    const typed = creditCodeIn(messages[0] ?? "");
    expect(typed).not.toBe("");
    // The code is stored only as an HMAC, never in the clear (not even in the outbox).
    const stored =
      JSON.stringify((await db().execute("SELECT * FROM credit_codes")).rows) +
      JSON.stringify((await db().execute("SELECT * FROM mail_outbox")).rows);
    expect(stored).not.toContain(typed.replace(/-/g, ""));
    expect(stored).not.toContain(typed);

    const other = await newReport();
    expect(await (await redeem(other, typed)).json()).toEqual({ id: other, unlocked: true, credits_remaining: 3 });
  });

  it("turns a payment for a report unlocked meanwhile into a credit, and says so", async () => {
    const id = await newReport();
    const { intentId } = await startPayment(id, { purchase: "unlock", email: "lin@example.com" });
    const staff = await store.t.services.checks.issueCode(1, "staff", null, null);
    expect((await redeem(id, staff?.code ?? "")).status).toBe(200);
    await store.fake.succeedIntent(intentId);
    expect(await findCreditCode(db(), { id: paymentCodeId(intentId) })).toMatchObject({
      credits_total: 1,
      credits_remaining: 1,
    });
    const [message] = await mailTo("lin@example.com");
    expect(message).toContain("was already unlocked when your payment arrived");
    expect(message).toContain("1 credit left (of 1)");
  });

  it("takes back a refunded purchase: the pack's code stops working, a single unlock returns to the summary", async () => {
    const unlockReport = await newReport();
    const unlock = await startPayment(unlockReport, { purchase: "unlock", email: "kim@example.com" });
    await store.fake.succeedIntent(unlock.intentId);
    const packReport = await newReport();
    const pack = await startPayment(packReport, { purchase: "pack", pack: "pack-5", email: "kim@example.com" });
    await store.fake.succeedIntent(pack.intentId);

    for (const intentId of [unlock.intentId, pack.intentId]) {
      expect(
        (await store.deliver(store.fake.sign(store.fake.state.refund({ payment_intent: intentId }).event))).status,
      ).toBe(200);
    }
    expect((await readReport(reports(), unlockReport))?.unlocked_at).toBeNull();
    expect((await readReport(reports(), packReport))?.unlocked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const code = await findCreditCode(db(), { id: paymentCodeId(pack.intentId) });
    expect(code).toMatchObject({ credits_remaining: 0 });
    expect(code?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await creditLedger(db(), code?.id ?? "")).reduce((sum, entry) => sum + entry.delta, 0)).toBe(0);
  });

  it("unlocks through the hosted page for people when the buyer returns before the webhook, and the late webhook changes nothing", async () => {
    const id = await newReport();
    const report = await readReport(reports(), id);
    if (!report) throw new Error("no report");
    const { url } = await store.t.services.checkPayments.startHosted(report, {
      purchase: "pack",
      pack: "pack-5",
      email: "ida@example.com",
    });
    const sessionId = url.slice(url.lastIndexOf("/") + 1);
    expect(await store.t.services.checkPayments.confirmHosted(id, sessionId)).toBe("pending");
    store.autoDeliver = false;
    const completed = await store.fake.pay(sessionId);
    store.autoDeliver = true;
    // Another report's page cannot claim this payment; a made-up session is unknown.
    expect(await store.t.services.checkPayments.confirmHosted(await newReport(), sessionId)).toBe("unknown");
    expect(await store.t.services.checkPayments.confirmHosted(id, "cs_test_nosuchsession")).toBe("unknown");
    expect(await store.t.services.checkPayments.confirmHosted(id, sessionId)).toBe("paid");
    expect((await readReport(reports(), id))?.unlock_source).toBe("payment");
    expect((await store.deliver(completed)).status).toBe(200);
    const intentId = String(store.fake.state.sessions.get(sessionId)?.json.payment_intent);
    expect(
      (
        await store.deliver(
          store.fake.sign(store.fake.state.event("payment_intent.succeeded", store.fake.state.intentJson(intentId))),
        )
      ).status,
    ).toBe(200);
    expect(await findCreditCode(db(), { id: paymentCodeId(intentId) })).toMatchObject({
      credits_total: 5,
      credits_remaining: 4,
    });
    expect(await mailTo("ida@example.com")).toHaveLength(1);
  });

  it("answers 404, 409, 422 and 503 as documented, and never charges without a report", async () => {
    await expectProblem(await checkout(randomUUID(), { purchase: "unlock", email: "a@example.com" }), 404, "not-found");
    const id = await newReport();
    const invalid = await expectProblem(
      await checkout(id, { purchase: "pack", pack: "pack-999", email: "not-an-email", amount: 1 }),
      422,
      "validation-failed",
    );
    expect((invalid.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual([
      "#/amount",
      "#/email",
    ]);
    const pack = await expectProblem(
      await checkout(id, { purchase: "pack", pack: "pack-999", email: "a@example.com" }),
      422,
      "validation-failed",
    );
    expect(pack.errors).toEqual([{ pointer: "#/pack", detail: expect.stringContaining("pack-5, pack-20, pack-50") }]);

    await setSwitch(db(), "credit_packs", false, "test", new Date().toISOString());
    await expectProblem(
      await checkout(id, { purchase: "pack", pack: "pack-5", email: "a@example.com" }),
      503,
      "form-closed",
    );
    expect((await checkout(id, { purchase: "unlock", email: "b@example.com" })).status).toBe(200);
    await setSwitch(db(), "credit_packs", true, "test", new Date().toISOString());

    const intentsBefore = store.fake.state.intents.size;
    store.fake.failNext(2, "error", "/v1/payment_intents");
    const failed = await expectProblem(
      await checkout(id, { purchase: "unlock", email: "c@example.com" }),
      503,
      "service-unavailable",
    );
    expect(failed.detail).toContain("nothing was charged");
    store.fake.failNext(1, "malformed", "/v1/payment_intents");
    await expectProblem(
      await checkout(id, { purchase: "unlock", email: "c@example.com" }),
      502,
      "payment-provider-answer-invalid",
    );
    store.fake.failNext(0);
    expect(store.fake.state.intents.size).toBe(intentsBefore);
    expect(await countRows(store, "check_payments", "email = ?", ["c@example.com"])).toBe(0);
  });
});
