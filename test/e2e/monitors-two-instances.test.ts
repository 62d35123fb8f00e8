import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { expectEachDueMonitorRunOnce } from "../helpers/monitor-race.ts";
import { type ChangingSite, headerValue, linkPath, startChangingSite } from "../helpers/monitors.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { mimePart, type SmtpSink, startSmtpSink } from "../helpers/smtp.ts";

/**
 * Two real server processes on one database file race for due monitors (each polling every 100 ms,
 * three checks at a time), with the staff command `monitors run-due` as a third contender: every
 * monitor must be claimed once, checked once and recorded once.
 */
let dir: string;
let databaseUrl: string;
let env: Record<string, string>;
let first: RunningServer;
let second: RunningServer;
let smtp: SmtpSink;
const sites: ChangingSite[] = [];

const SITES = 5;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "monitors-two-"));
  databaseUrl = `file:${join(dir, "service.db")}`;
  for (let index = 0; index < SITES; index++) sites.push(await startChangingSite("exemplary"));
  smtp = await startSmtpSink();
  env = {
    SMTP_URL: smtp.url,
    DATABASE_URL: databaseUrl,
    CHECKS_ALLOWED_TARGETS: sites.map((site) => site.hostPort).join(","),
    MONITORS_INTERVAL_MS: "100",
    MONITORS_CONCURRENCY: "3",
    RATE_LIMIT_STORE: "database",
    RATE_LIMITS: "monitors=1000/60",
    LOG_LEVEL: "warn",
  };
  first = await startServer(env);
  second = await startServer({ ...env, PORT: String(await freePort()) });
}, 180_000);
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await Promise.all(sites.map((site) => site.close()));
  await smtp?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("two instances and the staff command on one database", () => {
  it("run each due monitor exactly once: one claim, one check, one recorded run", async () => {
    const client = createClient({ url: databaseUrl });
    await expectEachDueMonitorRunOnce([first.url, second.url], env, client, sites);
    client.close();
  }, 180_000);

  it("send each regression's alert once, whichever instance ran the check and sent the outbox", async () => {
    const client = createClient({ url: databaseUrl });
    const until = async (what: () => Promise<boolean>, label: string) => {
      const deadline = Date.now() + 120_000;
      while (!(await what())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    const mails = (subject: RegExp) => smtp.received.filter((mail) => subject.test(headerValue(mail.raw, "Subject")));
    const owners = sites.map((_, index) => `alert-${index}@example.com`);
    await Promise.all(
      owners.map((email, index) =>
        fetch(`${index % 2 === 0 ? first.url : second.url}/api/v1/monitors`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain: sites[index]?.origin, email }),
        }),
      ),
    );
    await until(async () => mails(/^Confirm: /).length >= owners.length, "the confirmations");
    const confirmed = await Promise.all(
      mails(/^Confirm: /).map((mail, index) =>
        fetch(`${index % 2 === 0 ? second.url : first.url}/api/v1/monitors/confirm`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            token: linkPath(mimePart(mail.raw, "text/plain"), "/monitors/confirm/").split("/").at(-1),
          }),
        }).then((response) => response.status),
      ),
    );
    expect(confirmed).toEqual(owners.map(() => 200));
    const runsOf = async (count: number) =>
      Number(
        (
          await client.execute(
            `SELECT COUNT(*) AS n FROM monitors WHERE email IS NOT NULL AND (SELECT COUNT(*) FROM monitor_runs WHERE monitor_id = monitors.id) = ${count}`,
          )
        ).rows[0]?.n,
      ) === owners.length;
    await until(() => runsOf(1), "the first runs");
    for (const site of sites) site.remove("/llms.txt", "/robots.txt");
    await client.execute(`UPDATE monitors SET next_run_at = '${new Date().toISOString()}' WHERE email IS NOT NULL`);
    await until(() => runsOf(2), "the second runs");
    await until(async () => mails(/ got worse: /).length >= owners.length, "the alerts");
    // Both instances keep sending the outbox every 2 s: a second copy would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const alerts = mails(/ got worse: /);
    expect(alerts.flatMap((mail) => mail.to).sort()).toEqual([...owners].sort());
    const outbox = await client.execute("SELECT state, attempts FROM mail_outbox WHERE kind = 'monitor-alert'");
    expect(outbox.rows.map((row) => [row.state, row.attempts])).toEqual(owners.map(() => ["sent", 1]));
    client.close();
  }, 240_000);
});
