import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SUITE_VERSION } from "../../../api/checks/engine/suite/version.ts";
import { claimDueMonitors, type NewRun, recordRun } from "../../../api/monitors/sql/runs.ts";
import type { MonitorView } from "../../../src/schemas/responses/monitors.ts";
import { expectProblem } from "../../helpers/agents.ts";
import {
  type ChangingSite,
  DAY_MS,
  linkPath,
  linkPaths,
  type MonitorBed,
  startChangingSite,
  startMonitorBed,
  watchByMail,
} from "../../helpers/monitors.ts";

let bed: MonitorBed;
/** A fresh service for each group, so one group's monitors never come due in another's runs. */
function freshBed(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    // Any port of loopback may be checked here; every other private address stays refused.
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1", ...env });
  });
  afterAll(() => bed?.close());
}

const db = () => bed.t.services.database.client;
const count = async (sql: string, ...args: string[]) => Number((await db().execute({ sql, args })).rows[0]?.n);
const request = (domain: string, email: string, extra: Record<string, unknown> = {}) =>
  bed.send("POST", "/api/v1/monitors", { domain, email, ...extra });
const tokenOf = (path: string) => path.split("/").at(-1) ?? "";

const watch = (domain: string, email: string) => watchByMail(bed, domain, email);

describe("bad input", () => {
  freshBed({ RATE_LIMITS: "monitors=100/60" });
  it("answers 422 listing every violation of a body at once", async () => {
    const body = await expectProblem(
      await bed.send("POST", "/api/v1/monitors", { domain: "", email: "not-mail", frequency: "hourly", every: 1 }),
      422,
      "validation-failed",
    );
    const pointers = (body.errors as { pointer: string }[]).map((error) => error.pointer).sort();
    expect(pointers).toEqual(["#/domain", "#/email", "#/every", "#/frequency"]);
    await expectProblem(await bed.send("POST", "/api/v1/monitors/confirm", { token: "x" }), 422, "validation-failed");
  });

  it("refuses private targets as checks do, and schedules nothing for them", async () => {
    for (const domain of ["10.0.0.5", "http://192.168.1.1:8080", "http://[::1]:4000", "localhost"]) {
      const body = await expectProblem(await request(domain, "private@example.com"), 422, "target-not-allowed");
      expect(body.errors, domain).toEqual([{ pointer: "#/domain", detail: expect.any(String) }]);
    }
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "private@example.com")).toBe(0);
    expect(await bed.deliver()).toEqual([]);
  });

  it("answers 410 for a link that was altered, or used for the other purpose", async () => {
    await request("http://127.0.0.1:19", "links@example.com");
    const token = tokenOf(linkPath((await bed.deliver())[0]?.text ?? "", "/monitors/confirm/"));
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    await expectProblem(
      await bed.send("POST", "/api/v1/monitors/confirm", { token: altered }),
      410,
      "monitor-link-invalid",
    );
    await expectProblem(await bed.send("POST", "/api/v1/monitors/unsubscribe", { token }), 410, "monitor-link-invalid");
  });

  it("answers 400 to a form that is not UTF-8, rather than storing U+FFFD in place of its bytes", async () => {
    const fields = "domain=http%3A%2F%2F127.0.0.1%3A23%2F{domain}&email=form%40example.com&frequency=daily";
    for (const body of [
      fields.replace("{domain}", "%FF"),
      fields.replace("{domain}", "%C0%80"),
      Buffer.concat([Buffer.from(fields.replace("{domain}", "")), Buffer.from([0xff])]),
    ]) {
      const response = await fetch(`${bed.base}/monitors`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body,
      });
      await expectProblem(response, 400, "bad-request");
    }
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "form@example.com")).toBe(0);
  });

  it("takes a link only as it was sent: a leading zero on the expiry is another token, refused", async () => {
    await request("http://127.0.0.1:20", "zero@example.com");
    const path = linkPath((await bed.deliver())[0]?.text ?? "", "/monitors/confirm/");
    const [version, monitor, expiry, signature] = tokenOf(path).split(".");
    const padded = [version, monitor, `0${expiry}`, signature].join(".");
    const problem = await expectProblem(
      await bed.send("POST", "/api/v1/monitors/confirm", { token: padded }),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([{ pointer: "#/token", detail: "must be the token of an e-mailed monitor link" }]);
    expect((await bed.send("GET", `/monitors/confirm/${padded}`)).status).toBe(410);
    expect((await bed.postForm(`/monitors/confirm/${padded}`, {})).status).toBe(422);
    expect(
      await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ? AND state = 'pending'", "zero@example.com"),
    ).toBe(1);
  });
});

describe("the free plan", () => {
  // The clock stands still here, so the minute's rate-limit window never ends.
  freshBed({ RATE_LIMITS: "monitors=100/60" });
  it("publishes its limit in /pricing.json and lets exactly five of six confirmations at once through", async () => {
    const pricing = (await (await bed.send("GET", "/pricing.json")).json()) as { monitors: { free_sites: number } };
    expect(pricing.monitors.free_sites).toBe(bed.t.services.content.pricing.monitors.free_sites);
    expect(pricing.monitors.free_sites).toBe(5);
    for (let port = 1; port <= 6; port++) await request(`http://127.0.0.1:${port}`, "busy@example.com");
    // One e-mail lists the six sites waiting for this address, each with its own link.
    const mails = await bed.deliver();
    expect(mails.map((mail) => mail.subject)).toEqual(["Confirm: watch 6 sites"]);
    const tokens = linkPaths(mails[0]?.text ?? "", "/monitors/confirm/").map(tokenOf);
    expect(tokens).toHaveLength(6);
    const answers = await Promise.all(tokens.map((token) => bed.send("POST", "/api/v1/monitors/confirm", { token })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 409]);
    await expectProblem(answers.find((answer) => answer.status === 409) as Response, 409, "monitor-limit-reached");
    expect(
      await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ? AND state = 'active'", "busy@example.com"),
    ).toBe(5);
    await request("http://127.0.0.1:7", "busy@example.com");
    expect((await bed.deliver())[0]?.text).toContain("already watches 5 sites, the free plan's limit");
  });
});

describe("requests nobody confirms, and addresses that bounce", () => {
  freshBed();
  it("forgets a request left unconfirmed for 7 days; its link then shows that it is no longer valid", async () => {
    await request("http://127.0.0.1:21", "later@example.com");
    const path = linkPath((await bed.deliver())[0]?.text ?? "", "/monitors/confirm/");
    bed.clock.advance(7 * DAY_MS + 3_600_000);
    await bed.t.services.scheduler.runDue();
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "later@example.com")).toBe(0);
    const page = await bed.send("GET", path);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain("This link is no longer valid");
    await expectProblem(
      await bed.send("POST", "/api/v1/monitors/confirm", { token: tokenOf(path) }),
      410,
      "monitor-link-invalid",
    );
  });

  it("fails an e-mail the mail server refuses for good without retrying, and removes nothing for it", async () => {
    bed.smtp.refuseRecipient("gone@example.com");
    await request("http://127.0.0.1:22", "gone@example.com");
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "gone@example.com")).toBe(1);
    expect(await bed.deliver()).toEqual([]);
    // The request stays pending, as any unconfirmed one does, and is forgotten after its week.
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "gone@example.com")).toBe(1);
    const row = (
      await db().execute("SELECT state, attempts, last_error FROM mail_outbox WHERE recipient = 'gone@example.com'")
    ).rows[0];
    expect(row).toMatchObject({ state: "failed", attempts: 1 });
    expect(String(row?.last_error)).toMatch(/^refused for good: .*550/);
  });
});

describe("sites that fail, suites that change, instances that die", () => {
  // One service per test: each counts the runs that only its own monitor makes.
  beforeEach(async () => {
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1" });
  });
  afterEach(() => bed?.close());
  let site: ChangingSite;
  beforeAll(async () => {
    site = await startChangingSite("exemplary");
  });
  afterAll(() => site?.close());

  it("records an unreachable site as a failed run with its reason, and says so once, not on every run", async () => {
    const down = await startChangingSite("blog");
    const id = await watch(down.origin, "down@example.com");
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1, alerts: 0 });
    await down.close();
    const alerts: number[] = [];
    for (let day = 0; day < 3; day++) {
      bed.clock.advance(DAY_MS);
      alerts.push((await bed.t.services.scheduler.runDue()).alerts);
    }
    expect(alerts).toEqual([1, 0, 0]);
    const mails = await bed.deliver();
    expect(mails.map((mail) => mail.subject)).toEqual([`${new URL(down.origin).host} could not be checked`]);
    expect(mails[0]?.text).toContain("the homepage did not answer");
    const monitor = (await (await bed.send("GET", `/api/v1/monitors/${id}`)).json()) as MonitorView;
    expect(monitor.history.data.map((run) => run.outcome)).toEqual(["failed", "failed", "failed", "checked"]);
    expect(monitor.latest).toMatchObject({ score: null, checks: {} });
    expect(monitor.latest?.reason).toMatch(/^the homepage did not answer: /);
    const badge = await bed.send("GET", `/badge/${new URL(down.origin).host}.svg`);
    expect(await badge.text()).toContain("<title>Agent readiness of");
  });

  it("says so when the suite changed between the two runs, so a stricter suite is not taken for a broken site", async () => {
    const id = await watch(site.origin, "suite@example.com");
    await bed.t.services.scheduler.runDue();
    await db().execute(
      "UPDATE monitor_runs SET suite_version = '2026.10.1' WHERE monitor_id IN (SELECT id FROM monitors WHERE email = 'suite@example.com')",
    );
    site.remove("/llms.txt");
    bed.clock.advance(DAY_MS);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ alerts: 1 });
    const [mail] = await bed.deliver();
    expect(mail?.text).toContain(`The check suite changed between these two runs (2026.10.1 → ${SUITE_VERSION})`);
    expect(mail?.text).toMatch(/llms\.exists: pass → fail/);
    expect(id).toMatch(/^mon_/);
    site.restore();
  });

  it("runs again what a dead instance claimed once its lease runs out, and drops that instance's late result", async () => {
    await watch(site.origin, "lease@example.com");
    const now = bed.clock.now();
    const [claim] = await claimDueMonitors(
      db(),
      now.toISOString(),
      new Date(now.getTime() + 60_000).toISOString(),
      "dead",
      10,
    );
    if (!claim) throw new Error("nothing was due");
    // The lease is held: the living instance leaves the monitor alone.
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 0 });
    bed.clock.advance(61_000);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1, superseded: 0 });
    const late: NewRun = {
      id: "run_late",
      instance: "dead",
      started_at: now.toISOString(),
      finished_at: now.toISOString(),
      outcome: "checked",
      reason: null,
      report_sealed: null,
      score: 1,
      level: 0,
      level_name: "Not Ready",
      incomplete: false,
      suite_version: SUITE_VERSION,
      checks: {},
      alerted: false,
    };
    expect(await recordRun(db(), claim, late, now.toISOString(), null)).toBe(false);
    const runs = (
      await db().execute({ sql: "SELECT instance FROM monitor_runs WHERE monitor_id = ?", args: [claim.monitor.id] })
    ).rows;
    expect(runs.map((row) => row.instance)).toEqual([bed.t.services.scheduler.instance]);
  });

  it("fences a lost lease: a result sent after another instance claimed the run is refused, the new holder's kept", async () => {
    await watch(site.origin, "fence@example.com");
    const lease = (holder: string) => {
      const now = bed.clock.now();
      return claimDueMonitors(db(), now.toISOString(), new Date(now.getTime() + 60_000).toISOString(), holder, 10);
    };
    const [lost] = await lease("slow");
    bed.clock.advance(61_000);
    const [held] = await lease("alive");
    if (!lost || !held) throw new Error("nothing was due");
    expect(held.claim).toBe(lost.claim + 1);
    const at = bed.clock.now().toISOString();
    const result = (id: string, instance: string): NewRun => ({
      id,
      instance,
      started_at: at,
      finished_at: at,
      outcome: "checked",
      reason: null,
      report_sealed: null,
      score: 50,
      level: 1,
      level_name: "Basic",
      incomplete: false,
      suite_version: SUITE_VERSION,
      checks: {},
      alerted: false,
    });
    // The slow instance finishes first, but its claim is no longer the monitor's: nothing of it is kept.
    expect(await recordRun(db(), lost, result("run_slow", "slow"), at, null)).toBe(false);
    expect(await recordRun(db(), held, result("run_alive", "alive"), at, null)).toBe(true);
    const runs = (
      await db().execute({ sql: "SELECT id FROM monitor_runs WHERE monitor_id = ?", args: [held.monitor.id] })
    ).rows;
    expect(runs.map((row) => row.id)).toEqual(["run_alive"]);
  });
});
