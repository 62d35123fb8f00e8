import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ArgsDef, CommandDef } from "citty";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { hashCreditCode, normaliseCreditCode } from "../../api/checks/credit-codes.ts";
import { creditCodeHash } from "../../api/checks/sql/credits.ts";
import { insertReport } from "../../api/checks/sql/reports.ts";
import { FileSql } from "../../api/db/file-sql.ts";
import { verifyDownloadToken } from "../../api/store/download-links.ts";
import type { ReadinessResult } from "../../src/schemas/report.ts";
import type { MonitorView } from "../../src/schemas/responses/monitors.ts";
import { checkSite } from "../api/checks/engine/_helpers.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { type AdminRun, runAdminCommand } from "./admin-cli.ts";
import { bearer, expectProblem } from "./agents.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "./smtp.ts";
import { createStoreApp, downloadLinkPath, entitlementOf, nextAddress, type StoreTestApp } from "./store.ts";

/**
 * Every value a copy of a database file shows: each text in every table, the strings inside JSON
 * texts (payloads, lists), and every BLOB as hex.
 */
export async function everyStoredValue(file: string): Promise<string[]> {
  const copy = new FileSql(file, 5_000);
  try {
    const tables = (await copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")).rows.map((row) =>
      String(row.name),
    );
    const values = new Set<string>();
    for (const table of tables)
      for (const row of (await copy.execute(`SELECT * FROM "${table}"`)).rows)
        for (const value of Object.values(row)) {
          if (typeof value === "string") {
            values.add(value);
            for (const inner of value.match(/[A-Za-z0-9_.~-]{16,}/g) ?? []) values.add(inner);
          } else if (value instanceof Uint8Array) values.add(Buffer.from(value).toString("hex"));
        }
    return [...values];
  } finally {
    copy.close();
  }
}

/** A credit code and a download link, as one instance of the service issued them. */
export interface Issued {
  code: string;
  codeId: string;
  /** The e-mailed download link's path. */
  link: string;
}

/**
 * What the server-secret tests share: a fixture site to check, an SMTP sink, and a fresh database
 * file per test that instances of the service open one after another, as before and after a restart.
 */
export class SecretBed {
  #site: FixtureSite | undefined;
  #smtp: SmtpSink | undefined;
  #template: ReadinessResult | undefined;
  readonly #dirs: string[] = [];
  databaseFile = "";

  get databaseUrl(): string {
    return `file:${this.databaseFile}`;
  }

  get smtp(): SmtpSink {
    if (!this.#smtp) throw new Error("start the bed first");
    return this.#smtp;
  }

  async start(): Promise<void> {
    this.#site = await startAgentReadySite();
    this.#smtp = await startSmtpSink();
    this.#template = await checkSite(this.#site);
  }

  async newDatabase(): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), "secret-"));
    this.#dirs.push(dir);
    this.databaseFile = join(dir, "service.db");
  }

  async close(): Promise<void> {
    await this.#smtp?.close();
    await this.#site?.close();
    await Promise.all(this.#dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }

  /** One instance of the service over this test's database (a restart is: close one, open another). */
  instance(env: Record<string, string> = {}): Promise<StoreTestApp> {
    return createStoreApp({
      env: {
        DATABASE_URL: this.databaseUrl,
        CHECKS_ALLOWED_TARGETS: this.#site?.hostPort ?? "",
        SMTP_URL: this.smtp.url,
        ...env,
      },
    });
  }

  /** `npm run admin -- …` against this test's database, configured from the environment as the CLI is. */
  admin<T extends ArgsDef>(command: CommandDef<T>, env: Record<string, string>, ...args: string[]): Promise<AdminRun> {
    Object.assign(process.env, {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      SERVER_SECRET: "",
      SERVER_SECRET_PREVIOUS: "",
      DATABASE_URL: this.databaseUrl,
      ...env,
    });
    return runAdminCommand(command, ...args);
  }

  /** A new locked report (a copy of one real check of the fixture site). */
  async newReport(app: StoreTestApp): Promise<string> {
    const id = randomUUID();
    if (!this.#template) throw new Error("start the bed first");
    const { database, keys } = app.t.services;
    await insertReport(database.client, keys.hash("report", id), this.#template, new Date().toISOString());
    return id;
  }

  /**
   * A site watched by an agent, checked once by the scheduler: its run keeps the report it made.
   * Answers the monitor's public id and the run's report id, as the API shows them to the agent.
   */
  async watch(app: StoreTestApp): Promise<{ monitor: string; report: string }> {
    const identity = { agent_name: "Watcher", agent_type: "monitor", operator_type: "company" as const };
    const { token } = await app.t.services.agents.register(identity, "staff", ["monitors:write"]);
    const created = await app.t.send("POST", "/api/v1/agents/monitors", { domain: this.#site?.origin }, bearer(token));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await app.t.services.scheduler.runDue()).toMatchObject({ recorded: 1 });
    const read = await app.t.send("GET", `/api/v1/agents/monitors/${id}`, undefined, bearer(token));
    const { history } = (await read.json()) as MonitorView;
    const report = history.data[0]?.report?.split("/").pop();
    if (!report) throw new Error("the monitor's run links no report");
    return { monitor: id, report };
  }

  /** A three-credit code from staff and a paid file's e-mailed link, made by this instance. */
  async issue(app: StoreTestApp): Promise<Issued> {
    const sessionId = await app.buy("agent-readiness-checklist", { email: "reader@example.com" });
    await app.fake.pay(sessionId);
    const link = downloadLinkPath(app, await entitlementOf(app, sessionId));
    const code = await app.t.services.checks.issueCode(3, "staff", null, null);
    if (!code) throw new Error("no code issued");
    return { code: code.code, codeId: code.id, link };
  }

  async redeem(app: StoreTestApp, code: string): Promise<Response> {
    const path = `/api/v1/checks/${await this.newReport(app)}/redeem`;
    return app.t.send("POST", path, { code }, { "x-forwarded-for": nextAddress() });
  }

  async expectWorking(app: StoreTestApp, issued: Issued): Promise<void> {
    expect((await app.t.send("GET", issued.link)).status).toBe(200);
    expect((await this.redeem(app, issued.code)).status).toBe(200);
  }

  async expectRefused(app: StoreTestApp, issued: Issued): Promise<void> {
    await expectProblem(await app.t.send("GET", issued.link), 410, "link-invalid");
    await expectProblem(await this.redeem(app, issued.code), 422, "invalid-credit-code");
  }

  /** Made with `secret` alone: the link's signature and the stored code hash are that key's. */
  async expectKeyedWith(app: StoreTestApp, issued: Issued, secret: string): Promise<void> {
    const token = issued.link.split("/").pop() ?? "";
    expect(verifyDownloadToken({ current: secret, previous: [] }, token, new Date()).ok).toBe(true);
    const checked = normaliseCreditCode(issued.code);
    if (!checked.ok) throw new Error("issued an invalid code");
    expect(await creditCodeHash(app.t.services.database.client, issued.codeId)).toBe(
      hashCreditCode(secret, checked.normalised),
    );
  }

  /** Starts a pack purchase for a new report, pays it, and returns the payment's id. */
  async payForPack(app: StoreTestApp, email: string): Promise<string> {
    return this.payForReport(app, await this.newReport(app), { purchase: "pack", pack: "pack-5", email });
  }

  /** Starts a purchase for the report (`check-checkout` body), pays it, and returns the payment's id. */
  async payForReport(app: StoreTestApp, reportId: string, body: Record<string, string>): Promise<string> {
    const response = await app.t.send("POST", `/api/v1/checks/${reportId}/checkout`, body, {
      "x-forwarded-for": nextAddress(),
    });
    expect(response.status).toBe(200);
    const intentId = ((await response.json()) as { client_secret: string }).client_secret.split("_secret_")[0] ?? "";
    await app.fake.succeedIntent(intentId);
    return intentId;
  }

  /** Sends what the outbox holds and returns the plain text of the one message to `to`. */
  async receiptTo(app: StoreTestApp, to: string): Promise<string> {
    await app.t.services.mail.deliverDue();
    const [message, ...more] = this.smtp.received
      .filter((received) => received.to.includes(to))
      .map((received) => mimePart(received.raw, "text/plain"));
    expect(more).toEqual([]);
    return message ?? "";
  }
}

/** A bed started for the test file, with a fresh database before each test. */
export function useSecretBed(): SecretBed {
  const bed = new SecretBed();
  beforeAll(() => bed.start());
  beforeEach(() => bed.newDatabase());
  afterAll(() => bed.close());
  return bed;
}
