import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineCheckerSettings } from "../../../api/checks/engine/settings.ts";
import { watchOffer } from "../../../api/checks/watch.ts";
import { monitorOrigin } from "../../../api/monitors/target.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import type { CheckReport, WatchOffer } from "../../../src/schemas/responses/checks.ts";
import type { AgentMonitor } from "../../../src/schemas/responses/monitors.ts";
import { bearer } from "../../helpers/agents.ts";
import { connectMcp } from "../../helpers/mcp-client.ts";
import { type ChangingSite, type MonitorBed, startChangingSite, startMonitorBed } from "../../helpers/monitors.ts";
import { copyReport } from "../../helpers/reports.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

// "Watch this site" from every report: the report says how, and following it creates the monitor.
let bed: MonitorBed;
let site: ChangingSite;
let token: string;
let other: string;

beforeAll(async () => {
  site = await startChangingSite("exemplary");
  bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1", RATE_LIMITS: "monitors=100/60" });
  token = await bed.agentToken();
  other = await bed.agentToken();
});
afterAll(async () => {
  await bed?.close();
  await site?.close();
});

async function check(body: Record<string, unknown>): Promise<CheckReport> {
  const response = await bed.send("POST", "/api/v1/checks", body);
  expect(response.status).toBe(200);
  return (await response.json()) as CheckReport;
}

type Offered = Extract<WatchOffer, { available: true }>;
function offered(watch: WatchOffer): Offered {
  if (!watch.available) throw new Error(`not watchable: ${watch.reason}`);
  return watch;
}

/** Sends the request a report's `watch` describes, with an agent token of the scope it names. */
const follow = ({ request }: Offered, agent = token) =>
  bed.send(request.method, new URL(request.url).pathname, request.body, bearer(agent));

describe("a report's watch offer", () => {
  it("is a request that creates a monitor of the checked site, the same one the report page's form would ask for", async () => {
    const report = await check({ domain: site.origin });
    expect(validateAgainstPublishedSchema("check-report", report)).toEqual([]);
    const watch = offered(report.watch);
    expect(watch).toEqual({
      available: true,
      domain: site.origin,
      form: expect.stringMatching(/\/monitors\?domain=http%3A%2F%2F127\.0\.0\.1%3A\d+$/),
      request: {
        method: "POST",
        url: expect.stringMatching(/\/api\/v1\/agents\/monitors$/),
        scope: "monitors:write",
        body: { domain: site.origin },
      },
      tool: { name: "create_monitor", arguments: { domain: site.origin } },
    });
    expect(new URL(watch.form).searchParams.get("domain")).toBe(site.origin);
    const created = await follow(watch);
    expect(created.status).toBe(201);
    const monitor = (await created.json()) as AgentMonitor;
    expect(monitor).toMatchObject({ origin: site.origin, state: "active", profile: null });
    // Read again, the report offers the same: following it twice is the same monitor.
    const read = (await (await bed.send("GET", `/api/v1/checks/${report.id}`)).json()) as CheckReport;
    expect(read.watch).toEqual(report.watch);
    const again = await follow(offered(read.watch));
    expect(again.status).toBe(200);
    expect(((await again.json()) as AgentMonitor).id).toBe(monitor.id);
  });

  it("ends the Markdown report with the same request and tool call, for agents that read text/markdown", async () => {
    const report = await check({ domain: site.origin });
    const watch = offered(report.watch);
    const markdown = await (
      await bed.send("GET", `/api/v1/checks/${report.id}`, undefined, { accept: "text/markdown" })
    ).text();
    const body = JSON.stringify(watch.request.body);
    expect(markdown).toContain("## Watch this site");
    expect(markdown).toContain(`POST ${watch.request.url} with ${body} and a token of the scope monitors:write`);
    expect(markdown).toContain(`call the MCP tool create_monitor with ${body}`);
    expect(markdown).toContain(`As a person: ${watch.form}`);
  });

  it("keeps the profile a check was run with, so the monitor judges the site as the report did", async () => {
    const report = await check({ domain: `${site.origin}/docs/`, profile: "api" });
    const watch = offered(report.watch);
    expect(watch.request.body).toEqual({ domain: site.origin, profile: ["api"] });
    // Another agent: the first already watches the site, and the same site again is the monitor it has.
    const created = await follow(watch, other);
    expect(created.status).toBe(201);
    expect(((await created.json()) as AgentMonitor).profile).toEqual(["api"]);
  });

  it("says why not, instead, while monitors are paused and for a site monitors would refuse", async () => {
    const report = await check({ domain: site.origin });
    const { client } = bed.t.services.database;
    await setSwitch(client, "checks", false, "test", new Date().toISOString());
    try {
      const paused = (await (await bed.send("GET", `/api/v1/checks/${report.id}`)).json()) as CheckReport;
      expect(validateAgainstPublishedSchema("check-report", paused)).toEqual([]);
      expect(paused.watch).toEqual({ available: false, reason: expect.stringContaining("paused") });
    } finally {
      await setSwitch(client, "checks", true, "test", new Date().toISOString());
    }
    // A report of an address checked under an allowance since withdrawn: monitors watch public sites only.
    const keys = bed.t.services.keys;
    const id = await copyReport({ db: client, keys }, report.id);
    await client.execute({
      sql: "UPDATE check_reports SET result = json_set(result, '$.target.origin', 'http://10.1.2.3') WHERE id = ?",
      args: [keys.hash("report", id)],
    });
    const refused = (await (await bed.send("GET", `/api/v1/checks/${id}`)).json()) as CheckReport;
    expect(refused.watch).toEqual({
      available: false,
      reason: "Monitors watch public sites only: 10.1.2.3 is a private address (RFC 1918).",
    });
  });
});

describe("the offer for a public site", () => {
  const deps = {
    settings: defineCheckerSettings(),
    siteUrl: "https://agentready.test",
    docsUrl: "https://agentready.test",
  };
  const profile = { inferred: ["content" as const], applied: ["content" as const], overridden: false, reasons: {} };

  it.each([
    ["http://Shop.example.", "shop.example"],
    ["https://shop.example:443", "shop.example"],
    ["https://93.184.215.14", "93.184.215.14"],
  ])("for a report of %s is the host a monitor watches over https, %s", (origin, host) => {
    const offer = watchOffer(deps, { target: { input: origin, origin }, profile }, true);
    if (!offer.available) throw new Error(offer.reason);
    expect(offer.request.body).toEqual({ domain: host });
    expect(offer.form).toBe(`https://agentready.test/monitors?domain=${host}`);
    expect(monitorOrigin({ origin, allowListed: false })).toBe(`https://${host}`);
  });
});

describe("the MCP check tool, through the official client", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectMcp(`${bed.base}/mcp`, { authorization: `Bearer ${token}` });
  });
  afterAll(() => client?.close());

  it("answers the report with its watch offer, whose tool call watches the site", async () => {
    const checked = await client.callTool({ name: "run_readiness_check", arguments: { domain: site.origin } });
    expect(checked.isError).toBeFalsy();
    const report = checked.structuredContent as CheckReport;
    const watch = offered(report.watch);
    expect(watch.tool).toEqual({ name: "create_monitor", arguments: { domain: site.origin } });
    const read = await client.callTool({ name: "read_readiness_report", arguments: { id: report.id } });
    expect((read.structuredContent as CheckReport).watch).toEqual(report.watch);
    const created = await client.callTool({ name: watch.tool.name, arguments: watch.tool.arguments });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ origin: site.origin, state: "active" });
  });
});

describe("the pages, as the server renders them", () => {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const html = async (path: string) => {
    const response = await bed.send("GET", path);
    expect(response.status).toBe(200);
    return response.text();
  };

  it("link a report to the monitor form with its site filled in, and a monitor to its latest report", async () => {
    const report = await check({ domain: site.origin });
    const form = `/monitors?domain=${encodeURIComponent(site.origin)}`;
    expect(await html(`/checks/${report.id}`)).toMatch(
      new RegExp(`<a href="${literal(form)}"[^>]*>Watch this site</a>`),
    );
    expect(await html(form)).toMatch(new RegExp(`<input[^>]* id="domain"[^>]* value="${literal(site.origin)}"`));

    const created = (await (await follow(offered(report.watch))).json()) as AgentMonitor;
    const page = new URL(created.url).pathname;
    expect(await html(page)).not.toContain("Open the latest report");
    await bed.t.services.scheduler.runDue();
    const latest = (await (await bed.send("GET", `/api/v1/monitors/${created.id}`)).json()) as AgentMonitor;
    const reportPath = new URL(latest.latest?.report ?? "http://x/none").pathname;
    expect(reportPath).toMatch(/^\/checks\/[0-9a-f-]{36}$/);
    expect(await html(page)).toMatch(new RegExp(`<a href="${reportPath}"[^>]*>Open the latest report</a>`));
  });
});
