import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MonitorView } from "../../../src/schemas/responses/monitors.ts";
import {
  type ChangingSite,
  DAY_MS,
  linkPath,
  type MonitorBed,
  startChangingSite,
  startMonitorBed,
} from "../../helpers/monitors.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

/**
 * The whole flow a site owner meets, on a real socket with the real SMTP server, the built pages and a
 * corpus fixture site that loses two files between runs; the clock is moved, never slept on.
 */
let bed: MonitorBed;
let site: ChangingSite;
const OWNER = "owner@example.com";

beforeAll(async () => {
  site = await startChangingSite("exemplary");
  bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: site.hostPort });
});
afterAll(async () => {
  await bed?.close();
  await site?.close();
});

const host = () => new URL(site.origin).host;
const countRows = async (sql: string, ...args: string[]) =>
  Number((await bed.t.services.database.client.execute({ sql, args })).rows[0]?.n);
/** A page's text as read: inline tags vanish, block tags separate words. */
const pageText = (html: string) =>
  html
    .replace(/<\/?(?:strong|em|a|span|code)\b[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("watching a site, from the request to the unsubscribe", () => {
  it("offers people a form that names the free plan's limit from the pricing", async () => {
    const page = await (await bed.send("GET", "/monitors")).text();
    expect(page).toMatch(/<form[^>]*action="\/monitors"/);
    expect(pageText(page)).toContain(
      `Free for up to ${bed.t.services.content.pricing.monitors.free_sites} sites per address`,
    );
  });

  let confirmPath = "";
  let monitorId = "";
  let alert = { subject: "", text: "", listUnsubscribe: "", listUnsubscribePost: "" };

  it("answers 202 the same whatever the address, and schedules nothing before the address is confirmed", async () => {
    const answers = await Promise.all(
      [OWNER, OWNER, "someone-else@example.com"].map(async (email) => {
        const response = await bed.send("POST", "/api/v1/monitors", { domain: site.origin, email, frequency: "daily" });
        expect(response.status).toBe(202);
        expect(response.headers.get("ratelimit-policy")).toMatch(/^"monitors";/);
        return response.text();
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(validateAgainstPublishedSchema("monitor-requested", JSON.parse(answers[0] ?? ""))).toEqual([]);
    expect(await countRows("SELECT COUNT(*) AS n FROM monitors WHERE state = 'pending'")).toBe(2);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 0 });

    const mails = await bed.deliver();
    // One confirmation per address, though the owner asked twice.
    expect(mails.map((mail) => mail.to).sort()).toEqual([OWNER, "someone-else@example.com"]);
    const mail = mails.find((candidate) => candidate.to === OWNER);
    expect(mail?.subject).toBe(`Confirm: watch ${host()}`);
    confirmPath = linkPath(mail?.text ?? "", "/monitors/confirm/");
  });

  it("shows a page with a button for the link (GET changes nothing), and confirms on the POST", async () => {
    const page = await bed.send("GET", confirmPath);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toMatch(/<button type="submit">Confirm<\/button>/);
    expect(pageText(html)).toContain(`Watch the agent readiness of ${host()}, checked every day`);
    expect(await countRows("SELECT COUNT(*) AS n FROM monitors WHERE state = 'active'")).toBe(0);

    const confirmed = await bed.postForm(confirmPath, {});
    expect(confirmed.status).toBe(200);
    const done = await confirmed.text();
    expect(pageText(done)).toContain(`Watching: ${host()}`);
    monitorId = /href="http[^"]*\/monitors\/(mon_[A-Za-z0-9_-]{43})"/.exec(done)?.[1] ?? "";
    expect(monitorId).toMatch(/^mon_/);
    expect(await countRows("SELECT COUNT(*) AS n FROM monitors WHERE state = 'active'")).toBe(1);
  });

  it("runs the first check at once, then the next only when a day has passed", async () => {
    expect(await bed.t.services.scheduler.runDue()).toEqual({ recorded: 1, superseded: 0, alerts: 0 });
    bed.clock.advance(DAY_MS - 60_000);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 0 });
    const monitor = (await (await bed.send("GET", `/api/v1/monitors/${monitorId}`)).json()) as MonitorView;
    expect(monitor.latest).toMatchObject({ outcome: "checked", alerted: false });
    expect(monitor.latest?.checks["llms.exists"]).toBe("pass");
    expect(await bed.deliver()).toEqual([]);
  });

  it("e-mails one alert when the site loses files, naming each check that changed and linking the monitor and the report", async () => {
    site.remove("/llms.txt", "/robots.txt");
    bed.clock.advance(2 * 60_000);
    expect(await bed.t.services.scheduler.runDue()).toEqual({ recorded: 1, superseded: 0, alerts: 1 });
    const mails = await bed.deliver();
    expect(mails).toHaveLength(1);
    alert = {
      subject: mails[0]?.subject ?? "",
      text: mails[0]?.text ?? "",
      listUnsubscribe: mails[0]?.header("List-Unsubscribe") ?? "",
      listUnsubscribePost: mails[0]?.header("List-Unsubscribe-Post") ?? "",
    };
    expect(mails[0]?.to).toBe(OWNER);
    expect(alert.subject).toMatch(new RegExp(`^${host().replace(/\./g, "\\.")} got worse: \\d+% → \\d+%$`));
    expect(alert.text).toMatch(/llms\.exists: pass → fail\. /);
    expect(alert.text).toContain(`/monitors/${monitorId}`);
    expect(alert.text).toMatch(/\/checks\/[0-9a-f-]{36}/);
    expect(alert.text).not.toContain("check suite changed");
    // RFC 8058: the signed unsubscribe link of the text, for a one-click POST from the mail client.
    expect(alert.listUnsubscribe).toMatch(/^<https?:\/\/[^>]+\/monitors\/unsubscribe\/v1\.[^>]+>$/);
    expect(new URL(alert.listUnsubscribe.slice(1, -1)).pathname).toBe(linkPath(alert.text, "/monitors/unsubscribe/"));
    expect(alert.listUnsubscribePost).toBe("List-Unsubscribe=One-Click");
  });

  it("sends nothing more while the site stays as it is: one alert per change, not per run", async () => {
    bed.clock.advance(DAY_MS);
    expect(await bed.t.services.scheduler.runDue()).toEqual({ recorded: 1, superseded: 0, alerts: 0 });
    expect(await bed.deliver()).toEqual([]);
  });

  it("keeps every run, newest first, a page at a time, as its published schema says", async () => {
    const response = await bed.send("GET", `/api/v1/monitors/${monitorId}?limit=2`);
    expect(response.status).toBe(200);
    const first = (await response.json()) as MonitorView;
    expect(validateAgainstPublishedSchema("monitor", first)).toEqual([]);
    expect(first.history.data.map((run) => run.alerted)).toEqual([false, true]);
    expect(first.history.data[0]?.finished_at.localeCompare(first.history.data[1]?.finished_at ?? "")).toBe(1);
    expect(first.history.next).not.toBeNull();
    const next = new URL(first.history.next ?? "");
    const older = (await (await bed.send("GET", `${next.pathname}${next.search}`)).json()) as MonitorView;
    expect(older.history.data).toHaveLength(1);
    expect(older.history.next).toBeNull();
    expect(older.history.data[0]?.checks["llms.exists"]).toBe("pass");
    for (const bad of ["before=abc", "limit=0", "limit=101"]) {
      const refused = await bed.send("GET", `/api/v1/monitors/${monitorId}?${bad}`);
      expect(refused.status, bad).toBe(422);
    }
    expect((await bed.send("GET", `/api/v1/monitors/mon_${"x".repeat(43)}`)).status).toBe(404);
  });

  it("draws the score over time on the monitor page and lists the checks that changed between two runs", async () => {
    const response = await bed.send("GET", `/monitors/${monitorId}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<svg[^>]*role="img"[^>]*aria-labelledby="chart-title chart-desc"/);
    expect(html).toContain("<polyline");
    expect(html).not.toMatch(/<script(?![^>]*src)[^>]*>[^<]+<\/script>(?![\s\S]*<\/head>)/);
    const text = pageText(html);
    expect(text).toContain("![Agent readiness of");
    // By default the two latest runs, which agree; the first and the latest differ by the files the site lost.
    expect(text).toContain("No check changed between these two runs.");
    const runs = [...new Set([...html.matchAll(/<option value="(run_[^"]+)"/g)].map((match) => match[1] ?? ""))];
    expect(runs).toHaveLength(3);
    const compared = await bed.send("GET", `/monitors/${monitorId}?from=${runs[2]}&to=${runs[0]}`);
    const changes = pageText(await compared.text());
    expect(changes).toMatch(/llms\.exists Pass Fail/);
    expect(changes).toMatch(/robots\.exists Pass Fail/);
  });

  it("serves a badge with the latest score and level, its title, an ETag and Cache-Control; an unknown domain a neutral 404", async () => {
    const response = await bed.send("GET", `/badge/${host()}.svg`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=3600");
    const etag = response.headers.get("etag") ?? "";
    // The coding joins a strong ETag (RFC 9110 §8.8.3): fetch accepts gzip, and the badge is over a kilobyte.
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}(-gzip|-br)?"$/);
    const svg = await response.text();
    const monitor = (await (await bed.send("GET", `/api/v1/monitors/${monitorId}`)).json()) as MonitorView;
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
      svg: { "@_role": string; "@_aria-label": string; "@_height": string; title: string; g: { text: unknown[] }[] };
    };
    expect(parsed.svg["@_role"]).toBe("img");
    expect(parsed.svg["@_height"]).toBe("20");
    expect(parsed.svg.title).toBe(
      `Agent readiness of ${host()}: score ${monitor.latest?.score}%, level ${monitor.latest?.level} (${monitor.latest?.level_name})`,
    );
    expect(parsed.svg["@_aria-label"]).toBe(parsed.svg.title);
    expect(svg).toContain(`>${monitor.latest?.score}% · level ${monitor.latest?.level}</text>`);
    expect((await bed.send("GET", `/badge/${host()}.svg`, undefined, { "if-none-match": etag })).status).toBe(304);

    const unknown = await bed.send("GET", "/badge/not-watched.example.svg");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    const neutral = new XMLParser().parse(await unknown.text()) as { svg: { title: string } };
    expect(neutral.svg.title).toBe("Agent readiness of not-watched.example: not monitored");
  });

  it("stops the monitor from the alert's unsubscribe link: a page with a button, and the one-click POST of RFC 8058", async () => {
    const path = linkPath(alert.text, "/monitors/unsubscribe/");
    const page = await (await bed.send("GET", path)).text();
    expect(page).toMatch(/<button type="submit">Stop watching<\/button>/);
    expect(await countRows("SELECT COUNT(*) AS n FROM monitors WHERE state = 'active'")).toBe(1);
    // What a webmail page sends for its Unsubscribe button: the List-Unsubscribe URL, from its own origin.
    const stopped = await fetch(`${bed.base}${new URL(alert.listUnsubscribe.slice(1, -1)).pathname}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://webmail.example" },
      body: alert.listUnsubscribePost,
    });
    expect(stopped.status).toBe(200);
    expect(pageText(await stopped.text())).toContain(`Stopped: ${host()}`);
    bed.clock.advance(2 * DAY_MS);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 0 });
    const monitor = (await (await bed.send("GET", `/api/v1/monitors/${monitorId}`)).json()) as MonitorView;
    expect(monitor).toMatchObject({ state: "stopped", next_run_at: null });
    expect(monitor.history.data).toHaveLength(3);
    expect((await bed.send("GET", `/badge/${host()}.svg`)).status).toBe(404);
  });
});
