import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { type FakeStripe, type SignedEvent, startFakeStripe } from "../fakes/stripe/fake-server.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp.ts";

// Payments and mail with two server processes on one database file: webhooks delivered to both,
// the last unit bought through both, mail while the SMTP server is down and after it comes back,
// and the payment provider not answering.
const WEBHOOK_SECRET = "whsec_two_instances";
let first: RunningServer;
let second: RunningServer;
let fake: FakeStripe;
let smtp: SmtpSink | undefined;
let smtpPort: number;
let dir: string;
let databaseUrl: string;
let db: Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "two-commerce-"));
  databaseUrl = `file:${join(dir, "service.db")}`;
  fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  // Mail goes to a port where nothing listens yet: the SMTP server is down from the start.
  smtpPort = await freePort();
  const shared = {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_STORE: "database",
    TRUST_PROXY: "true",
    STRIPE_SECRET_KEY: "sk_test_two",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    STRIPE_TIMEOUT_MS: "1000",
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  };
  first = await startServer(shared);
  second = await startServer({ ...shared, PORT: String(await freePort()) });
  db = createClient({ url: databaseUrl });
});
afterAll(async () => {
  db?.close();
  await Promise.all([first?.stop(), second?.stop()]);
  await fake?.close();
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

let address = 0;
const checkout = (server: RunningServer, productId: string, email: string) =>
  fetch(`${server.url}/api/v1/store/${productId}/checkout`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${++address}` },
    body: JSON.stringify({ email }),
  });
const deliver = (server: RunningServer, signed: SignedEvent) =>
  fetch(`${server.url}/api/v1/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signed.header },
    body: signed.payload,
  });
const count = async (sql: string, args: (string | number)[] = []) =>
  Number((await db.execute({ sql, args })).rows[0]?.n ?? 0);

async function buy(server: RunningServer, productId: string, email: string): Promise<string> {
  const response = await checkout(server, productId, email);
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

describe("payments with two instances on one database", () => {
  it("fulfil a webhook delivered to both at once (three times each) exactly once", async () => {
    const sessionId = await buy(first, "agent-readiness-checklist", "both@example.com");
    const paid = await fake.pay(sessionId);
    const answers = await Promise.all(
      [first, second, first, second, first, second].map((server) => deliver(server, paid)),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(await count("SELECT COUNT(*) AS n FROM payment_events WHERE id = ?", [String(paid.event.id)])).toBe(1);
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM store_fulfilments f JOIN store_orders o ON o.id = f.order_id WHERE o.email = ?",
        ["both@example.com"],
      ),
    ).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = 'both@example.com'")).toBe(1);
    const session = (await (
      await fetch(`${second.url}/api/v1/store/sessions/${sessionId}`, {
        headers: { "x-forwarded-for": "198.51.100.250" },
      })
    ).json()) as { delivery: { state: string } };
    expect(session.delivery.state).toBe("fulfilled");
  });

  it("give the last unit, bought through both at once, to one buyer and refund the other", async () => {
    const product = "field-notes-launch-edition";
    await db.execute({
      sql: "INSERT INTO store_stock (product_id, sold) VALUES (?, 24) ON CONFLICT (product_id) DO UPDATE SET sold = 24",
      args: [product],
    });
    const sessions = [await buy(first, product, "one@example.com"), await buy(second, product, "two@example.com")];
    const paid = [await fake.pay(sessions[0] ?? ""), await fake.pay(sessions[1] ?? "")];
    const answers = await Promise.all([
      deliver(first, paid[0] as SignedEvent),
      deliver(second, paid[1] as SignedEvent),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await count("SELECT sold AS n FROM store_stock WHERE product_id = ?", [product])).toBe(25);
    const outcomes = (
      await db.execute({
        sql: "SELECT f.outcome FROM store_fulfilments f JOIN store_orders o ON o.id = f.order_id WHERE o.product_id = ? ORDER BY f.outcome",
        args: [product],
      })
    ).rows.map((row) => row.outcome);
    expect(outcomes).toEqual(["granted", "sold-out"]);
    await expect.poll(() => fake.state.refunds.size, { timeout: 10_000 }).toBe(1);
  });

  it("answer 503 and record nothing while the provider does not answer, and take the retry", async () => {
    const ordersBefore = await count("SELECT COUNT(*) AS n FROM store_orders");
    fake.failNext(2, "hang", "/v1/checkout/sessions");
    const started = Date.now();
    const refused = await checkout(first, "discovery-starter-kit", "late@example.com");
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await count("SELECT COUNT(*) AS n FROM store_orders")).toBe(ordersBefore);
    expect((await checkout(second, "discovery-starter-kit", "late@example.com")).status).toBe(201);
  });

  it("keep mail while the SMTP server is down and send every message exactly once when it is back", {
    timeout: 60_000,
  }, async () => {
    const waiting = await count("SELECT COUNT(*) AS n FROM mail_outbox WHERE state = 'queued'");
    expect(waiting).toBeGreaterThanOrEqual(3);
    // Both instances' senders have tried and failed at least once, and kept the messages.
    await expect
      .poll(() => count("SELECT COUNT(*) AS n FROM mail_outbox WHERE attempts >= 1 AND last_error IS NOT NULL"), {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(1);
    expect(await count("SELECT COUNT(*) AS n FROM mail_outbox WHERE state IN ('sent', 'failed')")).toBe(0);

    smtp = await startSmtpSink(smtpPort);
    const retried = await runAdmin({ DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" }, "outbox", "retry");
    expect(retried.stdout).toMatch(/\d+ messages? due now/);
    await expect
      .poll(() => count("SELECT COUNT(*) AS n FROM mail_outbox WHERE state = 'sent'"), { timeout: 20_000 })
      .toBe(waiting);
    // A little longer: no instance sends anything a second time.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const recipients = (smtp?.received ?? []).flatMap((message) => message.to).sort();
    const expected = (await db.execute("SELECT recipient FROM mail_outbox ORDER BY recipient")).rows.map((row) =>
      String(row.recipient),
    );
    expect(recipients).toEqual(expected);
  });
});
