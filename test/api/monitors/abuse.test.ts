import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMonitor, MonitorView } from "../../../src/schemas/responses/monitors.ts";
import { bearer } from "../../helpers/agents.ts";
import {
  type ChangingSite,
  DAY_MS,
  type DeliveredMail,
  linkPath,
  linkPaths,
  type MonitorBed,
  startChangingSite,
  startMonitorBed,
  watchByMail,
} from "../../helpers/monitors.ts";

/**
 * The probes' scenarios against monitors (issue 30, items 1 to 3), on the real app with its pages on
 * a socket, the real SMTP server and a clock moved by hand: a monitor cannot be turned against the
 * person it mails, nor against the owner of the site it watches.
 */
let bed: MonitorBed;
const db = () => bed.t.services.database.client;
const count = async (sql: string, ...args: string[]) => Number((await db().execute({ sql, args })).rows[0]?.n);
/** A client of its own per source address (behind the trusted proxy the test app has). */
const from = (client: number) => ({ "x-forwarded-for": `203.0.113.${client}` });
const ask = (domain: string, email: string, client: number) =>
  bed.send("POST", "/api/v1/monitors", { domain, email }, from(client));
const monitorOf = async (id: string) => (await (await bed.send("GET", `/api/v1/monitors/${id}`)).json()) as MonitorView;
const historyOf = async (id: string) => (await monitorOf(id)).history.data.map((run) => run.id);
/** One day of the schedule: the clock moves a day and what is due runs. */
const nextDay = async () => {
  bed.clock.advance(DAY_MS);
  return bed.t.services.scheduler.runDue();
};

describe("a flood of requests toward one address", () => {
  beforeAll(async () => {
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1" });
  });
  afterAll(() => bed?.close());

  it("puts at most three e-mails a day in its inbox, each listing every site waiting for it: 20 clients × 10 sites", async () => {
    const victim = "victim@example.com";
    const received: DeliveredMail[] = [];
    // Four bursts of five clients, each asking for the ten sites; the outbox sends between bursts, as
    // the server's worker does every two seconds.
    for (let burst = 0; burst < 4; burst++) {
      for (let client = burst * 5 + 1; client <= burst * 5 + 5; client++)
        for (let port = 1; port <= 10; port++)
          expect((await ask(`http://127.0.0.1:${port}`, victim, client)).status).toBe(202);
      received.push(...(await bed.deliver()));
      bed.clock.advance(60_000);
    }
    expect(received.map((mail) => mail.to)).toEqual([victim, victim, victim]);
    // Each lists the ten sites waiting for the address, with a link for each (was: 200 e-mails).
    for (const mail of received) {
      expect(mail.subject).toBe("Confirm: watch 10 sites");
      expect(linkPaths(mail.text, "/monitors/confirm/")).toHaveLength(10);
      expect(mail.text).toContain("An address gets at most 3 of these e-mails a day");
    }
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", victim)).toBe(10);

    // A day after the first, the next one may go; the day's three are still the most.
    bed.clock.advance(DAY_MS - 4 * 60_000);
    for (let client = 21; client <= 25; client++) {
      expect((await ask("http://127.0.0.1:1", victim, client)).status).toBe(202);
      received.push(...(await bed.deliver()));
      bed.clock.advance(60_000);
    }
    expect(received).toHaveLength(6);
  });

  it("records at most ten requests waiting for one address's confirmation", async () => {
    for (let port = 1; port <= 12; port++)
      expect((await ask(`http://127.0.0.1:${port}`, "piled@example.com", 100 + (port % 2))).status).toBe(202);
    expect(await count("SELECT COUNT(*) AS n FROM monitors WHERE email = ?", "piled@example.com")).toBe(10);
    const [mail] = await bed.deliver();
    expect(linkPaths(mail?.text ?? "", "/monitors/confirm/")).toHaveLength(10);
  });
});

describe("one site spelled eight ways", () => {
  const spellings = [
    "example.com",
    "EXAMPLE.com",
    "example.com.",
    "https://example.com",
    "http://example.com",
    "http://Example.COM./",
    "https://example.com:443/any/path?q=1",
    "HTTP://example.com:80",
  ];
  beforeAll(async () => {
    // Names resolve to a public address, as on the web; nothing is checked here (no run is due).
    bed = await startMonitorBed(
      { RATE_LIMITS: "monitors=100/60" },
      { checkerLookup: async () => [{ address: "93.184.215.14", family: 4 }] },
    );
  });
  afterAll(() => bed?.close());

  it("is one monitor of https://example.com for an address, and one e-mail", async () => {
    for (const domain of spellings) expect((await ask(domain, "eight@example.com", 1)).status, domain).toBe(202);
    const rows = (
      await db().execute({ sql: "SELECT origin, host FROM monitors WHERE email = ?", args: ["eight@example.com"] })
    ).rows;
    expect(rows.map((row) => ({ ...row }))).toEqual([{ origin: "https://example.com", host: "example.com" }]);
    const mails = await bed.deliver();
    expect(mails.map((mail) => mail.subject)).toEqual(["Confirm: watch example.com"]);
  });

  it("is one monitor of https://example.com for an agent", async () => {
    const token = await bed.agentToken();
    const answers: { status: number; monitor: AgentMonitor }[] = [];
    for (const domain of spellings) {
      const response = await bed.send("POST", "/api/v1/agents/monitors", { domain }, bearer(token));
      answers.push({ status: response.status, monitor: (await response.json()) as AgentMonitor });
    }
    expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.monitor.id)).size).toBe(1);
    expect(answers[0]?.monitor).toMatchObject({ origin: "https://example.com", domain: "example.com" });
  });

  it("has a badge that only a monitor of https://example.com with the inferred profile speaks for", async () => {
    const badgeTitle = async () =>
      /<title>([^<]*)<\/title>/.exec(await (await bed.send("GET", "/badge/example.com.svg")).text())?.[1];
    // The agent's monitor above: confirmed, not checked yet.
    expect(await badgeTitle()).toBe("Agent readiness of example.com: monitored, not checked yet");
    // A plain-http monitor recorded before hosts were normalised, confirmed earlier, whose last run failed.
    const at = "2026-11-01T09:00:00.000Z";
    await db().batch(
      [
        {
          sql: `INSERT INTO monitors (id, key_hash, origin, host, input, frequency, email, state, created_at, confirmed_at, next_run_at)
                VALUES ('legacy', 'legacy-hash', 'http://example.com', 'example.com', 'http://example.com', 'daily', 'early@example.com', 'active', ?, ?, ?)`,
          args: [at, at, "2027-01-01T00:00:00.000Z"],
        },
        {
          sql: `INSERT INTO monitor_runs (id, monitor_id, scheduled_for, claim, instance, started_at, finished_at, outcome, reason, score, level, level_name, incomplete, suite_version, checks, alerted)
                VALUES ('run_legacy', 'legacy', ?, 1, 'old', ?, ?, 'failed', 'the homepage did not answer', NULL, NULL, NULL, 0, NULL, '{}', 0)`,
          args: [at, at, bed.clock.now().toISOString()],
        },
      ],
      "write",
    );
    expect(await badgeTitle()).toBe("Agent readiness of example.com: monitored, not checked yet");
  });
});

describe("a badge", () => {
  let site: ChangingSite;
  beforeAll(async () => {
    site = await startChangingSite("exemplary");
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1", RATE_LIMITS: "monitors=100/60" });
  });
  afterAll(async () => {
    await bed?.close();
    await site?.close();
  });
  const badge = async () => (await bed.send("GET", `/badge/${site.hostPort}.svg`)).text();

  it("keeps the owner's series when a stranger watches the host over the scheme it does not serve, or with a profile", async () => {
    const owner = await watchByMail(bed, site.origin, "owner@example.com");
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1 });
    const score = (await monitorOf(owner)).latest?.score;
    expect(score).toBeGreaterThan(0);
    const before = await badge();
    expect(before).toContain(`>${score}% · level`);

    // The fixture answers plain http only, as a site whose port 80 is closed answers https only.
    bed.clock.advance(60_000);
    const stranger = await watchByMail(bed, `https://${site.hostPort}`, "stranger@example.com", { headers: from(2) });
    bed.clock.advance(60_000);
    const chooser = await watchByMail(bed, site.origin, "chooser@example.com", {
      profile: "commerce",
      headers: from(3),
    });
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 2 });
    expect((await monitorOf(stranger)).latest).toMatchObject({ outcome: "failed" });
    expect((await monitorOf(chooser)).latest?.outcome).toBe("checked");
    // Was: "unreachable", from the stranger's latest run.
    expect(await badge()).toBe(before);
  });
});

describe("a victim's monitor and its history", () => {
  let site: ChangingSite;
  beforeAll(async () => {
    site = await startChangingSite("exemplary");
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1" });
  });
  afterAll(async () => {
    await bed?.close();
    await site?.close();
  });

  it("stay whole when a stranger asks for it again and the victim's mail server refuses that e-mail for good", async () => {
    const victim = "victim@example.com";
    const id = await watchByMail(bed, site.origin, victim);
    await bed.t.services.scheduler.runDue();
    await nextDay();
    const history = await historyOf(id);
    expect(history).toHaveLength(2);

    bed.smtp.refuseRecipient(victim);
    // The stranger asks three times (the day's most), and each "you already watch" e-mail is refused.
    for (let client = 1; client <= 3; client++) {
      expect((await ask(site.origin, victim, client)).status).toBe(202);
      expect(await bed.deliver()).toEqual([]);
      bed.clock.advance(60_000);
    }
    const refused = await db().execute({
      sql: "SELECT state, last_error FROM mail_outbox WHERE recipient = ? AND kind = 'monitor-confirm' AND state = 'failed'",
      args: [victim],
    });
    expect(refused.rows).toHaveLength(3);
    expect(String(refused.rows[0]?.last_error)).toMatch(/^refused for good: .*550/);
    // Was: the monitor and its history deleted by the first refusal.
    expect(await monitorOf(id)).toMatchObject({ state: "active" });
    expect(await historyOf(id)).toEqual(history);
    // It keeps running, and the stranger's refused e-mails cost the owner no alert.
    site.remove("/llms.txt");
    expect(await nextDay()).toMatchObject({ recorded: 1, alerts: 1 });
    expect(await historyOf(id)).toEqual([expect.any(String), ...history]);
    site.restore();
  });

  it("stays whole when a stranger asks again for a stopped monitor and nobody confirms", async () => {
    const owner = "stopped@example.com";
    const id = await watchByMail(bed, site.origin, owner);
    await bed.t.services.scheduler.runDue();
    // The owner asks again and stops it from the e-mail's unsubscribe link.
    expect((await ask(site.origin, owner, 5)).status).toBe(202);
    const [note] = await bed.deliver();
    const unsubscribe = linkPath(note?.text ?? "", "/monitors/unsubscribe/")
      .split("/")
      .at(-1);
    expect((await bed.send("POST", "/api/v1/monitors/unsubscribe", { token: unsubscribe })).status).toBe(200);
    const history = await historyOf(id);
    expect(history).toHaveLength(1);

    expect((await ask(site.origin, owner, 6)).status).toBe(202);
    expect(await monitorOf(id)).toMatchObject({ state: "active" });
    expect((await bed.deliver()).map((mail) => mail.subject)).toEqual([`Confirm: watch ${site.hostPort}`]);
    bed.clock.advance(8 * DAY_MS);
    await bed.t.services.scheduler.runDue();
    // Was: removed with its history as "unconfirmed for 7 days".
    expect(await monitorOf(id)).toMatchObject({ state: "stopped" });
    expect(await historyOf(id)).toEqual(history);
  });
});

describe("an address that refuses alerts", () => {
  let own: ChangingSite;
  beforeAll(async () => {
    own = await startChangingSite("exemplary");
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1" });
  });
  afterAll(async () => {
    await bed?.close();
    await own?.close();
  });
  it("gets none after refusing three in a row; its monitor keeps running and recording, and alerts resume once mail reaches it", async () => {
    const owner = "bouncing@example.com";
    const id = await watchByMail(bed, own.origin, owner);
    await bed.t.services.scheduler.runDue();
    bed.smtp.refuseRecipient(owner);
    // Down and back up three times: three alerts, each refused for good.
    for (let time = 0; time < 3; time++) {
      own.remove("/");
      expect(await nextDay()).toMatchObject({ recorded: 1, alerts: 1 });
      expect(await bed.deliver()).toEqual([]);
      own.restore();
      expect(await nextDay()).toMatchObject({ recorded: 1, alerts: 0 });
    }
    own.remove("/");
    expect(await nextDay()).toMatchObject({ recorded: 1, alerts: 0 });
    const monitor = await monitorOf(id);
    expect(monitor.state).toBe("active");
    expect(monitor.history.data).toHaveLength(8);
    expect(monitor.latest).toMatchObject({ outcome: "failed", alerted: false });

    // The mailbox is back: the owner asks for the site again, that e-mail arrives, and alerts resume.
    bed.smtp.acceptRecipient(owner);
    expect((await ask(own.origin, owner, 7)).status).toBe(202);
    expect((await bed.deliver()).map((mail) => mail.subject)).toEqual([`You already watch ${own.hostPort}`]);
    own.restore();
    await nextDay();
    own.remove("/");
    expect(await nextDay()).toMatchObject({ recorded: 1, alerts: 1 });
    expect((await bed.deliver()).map((mail) => mail.subject)).toEqual([`${own.hostPort} could not be checked`]);
  });
});
