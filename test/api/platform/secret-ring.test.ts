import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deriveCreditCode, hashCreditCode, normaliseCreditCode } from "../../../api/checks/credit-codes.ts";
import { paymentCodeId } from "../../../api/checks/fulfilment.ts";
import { creditCodeHash } from "../../../api/checks/sql/credits.ts";
import { insertReport } from "../../../api/checks/sql/reports.ts";
import { verifyDownloadToken } from "../../../api/store/download-links.ts";
import { secretCommand } from "../../../scripts/admin/secret.ts";
import type { ReadinessResult } from "../../../src/schemas/report.ts";
import { startAgentReadySite } from "../../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../../fixtures/sites/serve.ts";
import { type AdminRun, runAdmin, runAdminCommand } from "../../helpers/admin-cli.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { CREDIT_CODE_IN_TEXT, creditCodeIn } from "../../helpers/credit-code.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "../../helpers/smtp.ts";
import { createStoreApp, nextAddress, type StoreTestApp } from "../../helpers/store.ts";
import { checkSite } from "../checks/engine/_helpers.ts";

const SECRET_A = "env-secret-a-0123456789abcdefghijklmnop";
const SECRET_B = "env-secret-b-0123456789abcdefghijklmnop";
const SECRET_X = "env-secret-x-0123456789abcdefghijklmnop";
// A fresh Node process takes seconds on a busy machine.
const SLOW = 60_000;

let site: FixtureSite;
let smtp: SmtpSink;
let template: ReadinessResult;
/** Each test's instances share one database file, as instances before and after a restart do. */
let databaseUrl: string;
const dirs: string[] = [];

/** One instance of the service over this test's database (a restart is: close one, open another). */
const instance = (env: Record<string, string> = {}) =>
  createStoreApp({
    env: { DATABASE_URL: databaseUrl, CHECKS_ALLOWED_TARGETS: site.hostPort, SMTP_URL: smtp.url, ...env },
  });

/** `npm run admin -- secret …` against this test's database, configured from the environment as the CLI is. */
function secretAdmin(env: Record<string, string>, ...args: string[]): Promise<AdminRun> {
  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    SERVER_SECRET: "",
    SERVER_SECRET_PREVIOUS: "",
    DATABASE_URL: databaseUrl,
    ...env,
  });
  return runAdminCommand(secretCommand, ...args);
}

/** A new locked report (a copy of one real check of the fixture site). */
async function newReport(app: StoreTestApp): Promise<string> {
  const id = randomUUID();
  await insertReport(app.t.services.database.client, id, template, new Date().toISOString());
  return id;
}

interface Issued {
  code: string;
  codeId: string;
  /** The e-mailed download link's path. */
  link: string;
}

/** A three-credit code from staff and a paid file's e-mailed link, made by this instance. */
async function issue(app: StoreTestApp): Promise<Issued> {
  const sessionId = await app.buy("agent-readiness-checklist", { email: "reader@example.com" });
  await app.fake.pay(sessionId);
  const row = await app.t.services.database.client.queryOne({
    sql: "SELECT e.id FROM store_entitlements e JOIN store_orders o ON o.id = e.order_id WHERE o.session_id = ?",
    args: [sessionId],
  });
  const link = app.t.services.store.downloads
    .linkFor(String(row?.id), new Date())
    .url.replace(app.t.config.siteUrl, "");
  const code = await app.t.services.checks.issueCode(3, "staff", null, null);
  if (!code) throw new Error("no code issued");
  return { code: code.code, codeId: code.id, link };
}

const redeem = async (app: StoreTestApp, code: string) =>
  app.t.send("POST", `/api/v1/checks/${await newReport(app)}/redeem`, { code }, { "x-forwarded-for": nextAddress() });
const download = (app: StoreTestApp, link: string) => app.t.send("GET", link);

async function expectWorking(app: StoreTestApp, issued: Issued): Promise<void> {
  expect((await download(app, issued.link)).status).toBe(200);
  expect((await redeem(app, issued.code)).status).toBe(200);
}

async function expectRefused(app: StoreTestApp, issued: Issued): Promise<void> {
  await expectProblem(await download(app, issued.link), 410, "link-invalid");
  await expectProblem(await redeem(app, issued.code), 422, "invalid-credit-code");
}

/** Made with `secret` alone: the link's signature and the stored code hash are that key's. */
async function expectKeyedWith(app: StoreTestApp, issued: Issued, secret: string): Promise<void> {
  const token = issued.link.split("/").pop() ?? "";
  expect(verifyDownloadToken({ current: secret, previous: [] }, token, new Date()).ok).toBe(true);
  const checked = normaliseCreditCode(issued.code);
  if (!checked.ok) throw new Error("issued an invalid code");
  expect(await creditCodeHash(app.t.services.database.client, issued.codeId)).toBe(
    hashCreditCode(secret, checked.normalised),
  );
}

/** Starts a pack purchase for a new report, pays it, and returns the payment's id. */
async function payForPack(app: StoreTestApp, email: string): Promise<string> {
  const response = await app.t.send(
    "POST",
    `/api/v1/checks/${await newReport(app)}/checkout`,
    { purchase: "pack", pack: "pack-5", email },
    { "x-forwarded-for": nextAddress() },
  );
  expect(response.status).toBe(200);
  const intentId = ((await response.json()) as { client_secret: string }).client_secret.split("_secret_")[0] ?? "";
  await app.fake.succeedIntent(intentId);
  return intentId;
}

/** Sends what the outbox holds and returns the plain text of the one message to `to`. */
async function receiptTo(app: StoreTestApp, to: string): Promise<string> {
  await app.t.services.mail.deliverDue();
  const [message, ...more] = smtp.received
    .filter((received) => received.to.includes(to))
    .map((received) => mimePart(received.raw, "text/plain"));
  expect(more).toEqual([]);
  return message ?? "";
}

beforeAll(async () => {
  site = await startAgentReadySite();
  smtp = await startSmtpSink();
  template = await checkSite(site);
});
beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), "secret-"));
  dirs.push(dir);
  databaseUrl = `file:${join(dir, "service.db")}`;
});
afterAll(async () => {
  await smtp.close();
  await site.close();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("npm run admin -- secret rotate, then retire-previous", () => {
  it("keeps codes and links made before the rotation working after a restart, keys new ones with the new secret, and refuses the old ones once retired", async () => {
    const before = await instance();
    const oldSecret = before.t.services.secrets.current;
    const old = await issue(before);
    await before.close();

    const rotated = await secretAdmin({}, "rotate");
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toContain("Stored a new server secret. The database now keeps 1 previous key");
    expect(rotated.stdout).toContain("Restart every instance now");

    // The environment's previous keys come first, each once, and never the current one.
    const after = await instance({ SERVER_SECRET_PREVIOUS: `${SECRET_X},${oldSecret}` });
    const { secrets } = after.t.services;
    expect(secrets.current).not.toBe(oldSecret);
    expect(secrets.previous).toEqual([SECRET_X, oldSecret]);
    expect(rotated.stdout).not.toContain(oldSecret);
    expect(rotated.stdout).not.toContain(secrets.current);
    await expectWorking(after, old);
    const fresh = await issue(after);
    await expectKeyedWith(after, fresh, secrets.current);
    await after.close();

    const retired = await secretAdmin({ SERVER_SECRET_PREVIOUS: SECRET_X }, "retire-previous");
    expect(retired.code).toBe(0);
    expect(retired.stdout).toContain("Dropped 1 previous key from the database.");
    expect(retired.stdout).toContain("credit codes and download links issued before the last rotation stop working");
    expect(retired.stdout).toContain("SERVER_SECRET_PREVIOUS still holds 1 key");
    expect(retired.stdout).not.toContain(oldSecret);
    expect((await secretAdmin({}, "retire-previous")).stdout).toContain(
      "There were no previous keys in the database; nothing changed.",
    );

    const later = await instance();
    expect(later.t.services.secrets).toEqual({ current: secrets.current, previous: [] });
    await expectRefused(later, old);
    await expectWorking(later, fresh);
    await later.close();
  });

  it("rotates by environment the same way, and refuses `secret rotate` while SERVER_SECRET is set", async () => {
    const before = await instance({ SERVER_SECRET: SECRET_A });
    const old = await issue(before);
    await before.close();

    const refused = await secretAdmin({ SERVER_SECRET: SECRET_A }, "rotate");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "SERVER_SECRET is set in the environment, so the database's secret is not in use. Rotate by environment instead",
    );
    expect(refused.stderr + refused.stdout).not.toContain(SECRET_A);

    const after = await instance({ SERVER_SECRET: SECRET_B, SERVER_SECRET_PREVIOUS: `${SECRET_A}, ${SECRET_B}` });
    expect(after.t.services.secrets).toEqual({ current: SECRET_B, previous: [SECRET_A] });
    await expectWorking(after, old);
    const fresh = await issue(after);
    await expectKeyedWith(after, fresh, SECRET_B);
    await after.close();

    const later = await instance({ SERVER_SECRET: SECRET_B });
    await expectRefused(later, old);
    await expectWorking(later, fresh);
    await later.close();
  });

  it("keeps the generated secret as a previous key when SERVER_SECRET first overrides it", async () => {
    const before = await instance();
    const generated = before.t.services.secrets.current;
    const old = await issue(before);
    await before.close();

    const after = await instance({ SERVER_SECRET: SECRET_B });
    expect(after.t.services.secrets).toEqual({ current: SECRET_B, previous: [generated] });
    await expectWorking(after, old);
    await after.close();
  });

  it(
    "lists both commands in the CLI's help",
    async () => {
      const { code, stdout } = await runAdmin({ DATABASE_URL: databaseUrl }, "secret", "--help");
      expect(code).toBe(0);
      expect(stdout).toContain("rotate");
      expect(stdout).toContain("retire-previous");
    },
    SLOW,
  );
});

describe("a payment's receipt queued before a rotation and sent after", () => {
  it("carries the code the payment was issued, which redeems", async () => {
    const before = await instance();
    const intentId = await payForPack(before, "early@example.com");
    await before.close();
    expect((await secretAdmin({}, "rotate")).code).toBe(0);

    const after = await instance();
    const typed = creditCodeIn(await receiptTo(after, "early@example.com"));
    expect(typed).not.toBe("");
    expect(typed).not.toBe(deriveCreditCode(after.t.services.secrets.current, intentId));
    expect(await (await redeem(after, typed)).json()).toMatchObject({ unlocked: true, credits_remaining: 3 });
    await after.close();
  });

  it("says the code can no longer be shown, rather than showing one that fails, once its key was retired", async () => {
    const before = await instance();
    const intentId = await payForPack(before, "late@example.com");
    await before.close();
    expect((await secretAdmin({}, "rotate")).code).toBe(0);
    expect((await secretAdmin({}, "retire-previous")).code).toBe(0);

    const after = await instance();
    const text = await receiptTo(after, "late@example.com");
    expect(text).toContain("4 credits left (of 5), but your credit code can no longer be shown here");
    expect(text).toContain(intentId);
    expect(text).not.toMatch(CREDIT_CODE_IN_TEXT);
    expect(await creditCodeHash(after.t.services.database.client, paymentCodeId(intentId))).not.toBeNull();
    await after.close();
  });
});
