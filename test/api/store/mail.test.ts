import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDueMail } from "../../../api/mail/outbox-sql.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "../../helpers/smtp.ts";
import { countRows, createStoreApp, type StoreTestApp, sessionKey } from "../../helpers/store.ts";

let offset = 0;
let smtp: SmtpSink;
let store: StoreTestApp;
beforeAll(async () => {
  smtp = await startSmtpSink();
  store = await createStoreApp({
    env: { SMTP_URL: smtp.url, MAIL_FROM: "AgentReady <shop@agentready.example>" },
    now: () => new Date(Date.now() + offset),
  });
});
afterAll(async () => {
  await store.close();
  await smtp.close();
});

const mail = () => store.t.services.mail;
const outboxState = async (recipient: string) =>
  String(
    (
      await store.t.services.database.client.queryOne({
        sql: "SELECT state FROM mail_outbox WHERE recipient = ? ORDER BY created_at DESC",
        args: [recipient],
      })
    )?.state,
  );

describe("the delivery e-mail", () => {
  it("reaches a real SMTP server once, in plain text and HTML, and its link downloads the file", async () => {
    const id = await store.buy("agent-readiness-checklist", { email: "ada@example.com" });
    await store.fake.pay(id);
    expect(await mail().deliverDue()).toMatchObject({ sent: 1 });
    expect(await mail().deliverDue()).toMatchObject({ sent: 0 });
    const messages = smtp.received.filter((message) => message.to.includes("ada@example.com"));
    expect(messages).toHaveLength(1);
    const raw = messages[0]?.raw ?? "";
    expect(raw).toMatch(/^Subject: Your download: Agent-readiness checklist/m);
    expect(raw).toMatch(/^From: AgentReady <shop@agentready\.example>/m);
    expect(raw).toMatch(/^Message-ID: <mail_[A-Za-z0-9]+@127\.0\.0\.1>/m);
    const text = mimePart(raw, "text/plain");
    const html = mimePart(raw, "text/html");
    const link = /(https?:\/\/\S+\/api\/v1\/downloads\/v1\.[A-Za-z0-9._-]+)/.exec(text)?.[1] ?? "";
    expect(link).not.toBe("");
    expect(html).toContain(`href="${link}"`);
    const ends = (
      await store.t.services.database.client.queryOne({
        sql: "SELECT e.expires_at FROM store_entitlements e JOIN store_orders o ON o.id = e.order_id WHERE o.session_hash = ?",
        args: [sessionKey(store, id)],
      })
    )?.expires_at;
    expect(text).toContain(`stay available until ${new Date(String(ends)).toUTCString().slice(0, 16)}`);
    const download = await store.t.send("GET", new URL(link).pathname);
    expect(download.status).toBe(200);
    expect(
      Buffer.from(await download.arrayBuffer()).equals(
        await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md")),
      ),
    ).toBe(true);
    expect(await outboxState("ada@example.com")).toBe("sent");
  });

  it("is retried with backoff when the SMTP server refuses it, and sent once when it accepts", async () => {
    const id = await store.buy("discovery-starter-kit", { email: "retry@example.com" });
    await store.fake.pay(id);
    smtp.refuseNext(1);
    expect(await mail().deliverDue()).toMatchObject({ sent: 0, retried: 1 });
    const row = await store.t.services.database.client.queryOne({
      sql: "SELECT state, attempts, next_attempt_at, last_error FROM mail_outbox WHERE recipient = 'retry@example.com'",
    });
    expect(row).toMatchObject({ state: "queued", attempts: 1 });
    expect(Date.parse(String(row?.next_attempt_at)) - Date.now()).toBeGreaterThan(25_000);
    expect(await mail().deliverDue()).toMatchObject({ sent: 0, retried: 0 });
    offset = 31_000;
    try {
      expect(await mail().deliverDue()).toMatchObject({ sent: 1 });
    } finally {
      offset = 0;
    }
    expect(smtp.received.filter((message) => message.to.includes("retry@example.com"))).toHaveLength(1);
  });

  it("is sent again only after the lease of a sender that died mid-send runs out", async () => {
    const id = await store.buy("markdown-for-agents-guide", { email: "lease@example.com" });
    await store.fake.pay(id);
    const now = new Date();
    const claimed = await claimDueMail(
      store.t.services.database.client,
      now.toISOString(),
      new Date(now.getTime() + 300_000).toISOString(),
      10,
    );
    expect(claimed.map((row) => row.recipient)).toContain("lease@example.com");
    expect(await mail().deliverDue()).toMatchObject({ sent: 0 });
    offset = 301_000;
    try {
      expect(await mail().deliverDue()).toMatchObject({ sent: 1 });
    } finally {
      offset = 0;
    }
    expect(smtp.received.filter((message) => message.to.includes("lease@example.com"))).toHaveLength(1);
  });

  it("is cancelled, not sent, when the purchase is refunded before it goes", async () => {
    const id = await store.buy("agent-readiness-checklist", { email: "cancel@example.com" });
    await store.fake.pay(id);
    await store.fake.refund(id);
    await mail().deliverDue();
    expect(await outboxState("cancel@example.com")).toBe("cancelled");
    expect(smtp.received.filter((message) => message.to.includes("cancel@example.com"))).toHaveLength(0);
  });
});

describe("without SMTP_URL", () => {
  it("keeps messages queued in the outbox and sends nothing", async () => {
    const quiet = await createStoreApp();
    try {
      const id = await quiet.buy("agent-readiness-checklist", { email: "wait@example.com" });
      await quiet.fake.pay(id);
      expect(quiet.t.services.mail.configured).toBe(false);
      expect(await quiet.t.services.mail.deliverDue()).toEqual({ sent: 0, retried: 0, failed: 0, cancelled: 0 });
      expect(await countRows(quiet, "mail_outbox", "state = 'queued' AND recipient = 'wait@example.com'")).toBe(1);
      const status = (await (await quiet.t.app.request("/status.json")).json()) as { components: { mail: string } };
      expect(status.components.mail).toBe("not-configured");
    } finally {
      await quiet.close();
    }
  });
});
