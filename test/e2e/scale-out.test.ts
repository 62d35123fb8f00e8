import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditsCommand } from "../../scripts/admin/credits.ts";
import { switchesCommand } from "../../scripts/admin/switches.ts";
import { sampleSurveyAnswer } from "../../scripts/lib/sample-survey.ts";
import { NGINX_OWN_HEADERS } from "../../src/lib/nginx-conf.ts";
import { type FakeStripe, type SignedEvent, startFakeStripe } from "../fakes/stripe/fake-server.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { runAdminCommand } from "../helpers/admin-cli.ts";
import { bearer, PRIVACY_VERSION, validEntry } from "../helpers/agents.ts";
import { frontLog } from "../helpers/front-log.ts";
import { insertLockedReports, lookupKeysOf } from "../helpers/reports.ts";
import { type ScaleOut, startScaleOut } from "../helpers/scale-out.ts";
import type { RunningServer } from "../helpers/server-process.ts";
import { type SmtpSink, startSmtpSink } from "../helpers/smtp.ts";

// The runbook's scale-out deployment, with real processes: one sqld, two API instances on it and
// nginx in front. Races spread over both instances must hold inside the database.
const WEBHOOK_SECRET = "whsec_scale_out";
let stack: ScaleOut;
let fake: FakeStripe;
let smtp: SmtpSink;
let first: RunningServer;
let second: RunningServer;
let fixture: FixtureSite;

beforeAll(async () => {
  fake = await startFakeStripe({ webhookSecret: WEBHOOK_SECRET });
  smtp = await startSmtpSink();
  fixture = await startAgentReadySite();
  stack = await startScaleOut("races", {
    CHECKS_ALLOWED_TARGETS: fixture.hostPort,
    RATE_LIMITS: "agent-writes=1000/60,waitlist=1000/60,agent-register=4/3600",
    STRIPE_SECRET_KEY: "sk_test_scale_out",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fake.url,
    SMTP_URL: smtp.url,
  });
  [first, second] = stack.instances as [RunningServer, RunningServer];
  // The staff CLI's commands run in this process (a Node process each costs seconds), against sqld.
  process.env.DATABASE_URL = stack.sqld.url;
  process.env.SERVER_SECRET = stack.env.SERVER_SECRET;
  process.env.BOT_SIGNING_KEY = stack.env.BOT_SIGNING_KEY;
});
afterAll(async () => {
  await stack?.stop();
  await fake?.close();
  await smtp?.close();
  await fixture?.close();
});

let address = 0;
const post = (server: { url: string }, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${++address % 250}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
/** `count` requests at once, alternating between the two instances. */
const overBoth = <T>(count: number, task: (server: RunningServer, index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, index) => task(index % 2 === 0 ? first : second, index)));
const count = async (sql: string, args: (string | number)[] = []) =>
  Number((await stack.db.execute({ sql, args })).rows[0]?.n ?? 0);
function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

async function register(server: RunningServer): Promise<{ token: string; agent_id: string }> {
  const response = await post(server, "/api/v1/agents/register", {
    agent_name: "Racer",
    agent_type: "bot",
    operator_type: "company",
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { token: string; agent_id: string };
}

describe("two instances on one sqld", () => {
  it("let one of 32 simultaneous agent waiting-list entries and survey answers of one registration through", async () => {
    const agent = await register(first);
    const auth = { authorization: `Bearer ${agent.token}` };
    const entries = await overBoth(32, (server) => post(server, "/api/v1/agents/waitlist", validEntry, auth));
    expect(tally(entries.map((response) => response.status))).toEqual({ 201: 1, 409: 31 });
    const answers = await overBoth(32, (server) => post(server, "/api/v1/agents/survey", sampleSurveyAnswer(), auth));
    expect(tally(answers.map((response) => response.status))).toEqual({ 201: 1, 409: 31 });
    expect(await count("SELECT COUNT(*) AS n FROM agent_waitlist_entries WHERE agent_id = ?", [agent.agent_id])).toBe(
      1,
    );
  });

  it("keep one row for one e-mail sent 32 times to the people's list, answering 202 to each", async () => {
    const signup = { email: "same@example.com", consent: true, consent_version: PRIVACY_VERSION };
    const answers = await overBoth(32, (server) => post(server, "/api/v1/waitlist", signup));
    expect(tally(answers.map((response) => response.status))).toEqual({ 202: 32 });
    expect(await count("SELECT COUNT(*) AS n FROM waitlist_signups WHERE email = 'same@example.com'")).toBe(1);
  });

  it("spend a four-credit code on exactly four of nine reports redeemed at once, and the ledger agrees", async () => {
    const keys = await lookupKeysOf(stack.env.DATABASE_URL ?? "", stack.env.SERVER_SECRET);
    const reports = await insertLockedReports(stack.db, keys, 9);
    const issued = await runAdminCommand(creditsCommand, "issue", "4");
    expect(issued.code).toBe(0);
    const code = /Code:\s+(\S+)/.exec(issued.stdout)?.[1] ?? "";
    const statuses = await overBoth(9, (server, index) =>
      post(server, `/api/v1/checks/${reports[index]}/redeem`, { code }).then((response) => response.status),
    );
    expect(tally(statuses)).toEqual({ 200: 4, 409: 5 });
    const balance = await stack.db.execute(
      "SELECT c.credits_remaining AS remaining, (SELECT SUM(delta) FROM credit_ledger l WHERE l.code_id = c.id) AS ledger FROM credit_codes c",
    );
    expect(balance.rows[0]).toMatchObject({ remaining: 0, ledger: 0 });
  });

  it("fulfil a checkout once when its webhook reaches one instance while the other looks it up, and call a replay a duplicate", async () => {
    const started = await post(first, "/api/v1/store/agent-readiness-checklist/checkout", {
      email: "buyer@example.com",
    });
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    const paid = (await fake.pay(id)) as SignedEvent;
    const deliver = (server: RunningServer) =>
      post(server, "/api/v1/webhooks/stripe", paid.payload, { "stripe-signature": paid.header });
    const [delivered, looked] = await Promise.all([
      deliver(first),
      fetch(`${second.url}/api/v1/store/sessions/${id}`, { headers: { "x-forwarded-for": "192.0.2.10" } }),
    ]);
    expect(delivered.status).toBe(200);
    expect(looked.status).toBe(200);
    const replay = await deliver(second);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    // The database keeps only the session id's keyed hash: the order is found by its buyer here.
    const fulfilments =
      "SELECT COUNT(*) AS n FROM store_fulfilments f JOIN store_orders o ON o.id = f.order_id WHERE o.email = ?";
    expect(await count(fulfilments, ["buyer@example.com"])).toBe(1);
    await expect
      .poll(() => smtp.received.filter((mail) => mail.to.includes("buyer@example.com")).length, { timeout: 15_000 })
      .toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM mail_outbox WHERE recipient = 'buyer@example.com'")).toBe(1);
  });

  it("run a readiness check over MCP through the front and read its report from either instance", {
    timeout: 90_000,
  }, async () => {
    const client = new Client({ name: "scale-out", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.front.url}/mcp`)));
    const run = await client.callTool({ name: "run_readiness_check", arguments: { domain: fixture.origin } });
    await client.close();
    expect(run.isError).toBeFalsy();
    const { id } = run.structuredContent as { id: string };
    const [fromFirst, fromSecond] = await Promise.all(
      [first, second].map(async (server) => (await fetch(`${server.url}/api/v1/checks/${id}`)).json()),
    );
    expect(fromFirst).toEqual(fromSecond);
    expect(fromFirst).toMatchObject({ id, locked: true, target: { origin: fixture.origin } });
  });

  it("let an agent read its own waiting-list entry and survey answer through the front, right after each 201", async () => {
    // The probe: through the front, an agent that got 201 read `"joined": false` from the other
    // instance's cached owner. Each agent is read twice first (with round-robin, both instances
    // would then hold its owner), then writes and reads at once, three times.
    const agents = await Promise.all(Array.from({ length: 10 }, () => register(first)));
    const me = async (token: string) => {
      const response = await fetch(`${stack.front.url}/api/v1/agents/me`, { headers: bearer(token) });
      expect(response.status).toBe(200);
      return (await response.json()) as { waitlist: { joined: boolean }; survey: { answered: boolean } };
    };
    const viaFront = (path: string, token: string, body: unknown) => post(stack.front, path, body, bearer(token));
    for (const { token } of agents) {
      await me(token);
      await me(token);
      expect((await viaFront("/api/v1/agents/waitlist", token, validEntry)).status).toBe(201);
      for (let read = 0; read < 3; read++) expect((await me(token)).waitlist.joined).toBe(true);
      expect((await viaFront("/api/v1/agents/survey", token, sampleSurveyAnswer())).status).toBe(201);
      for (let read = 0; read < 3; read++) expect((await me(token)).survey.answered).toBe(true);
    }
    // The agents were spread over both instances: the reads above met each of them.
    const served = (await frontLog(stack.front.workDir)).filter((line) => line.path === "/api/v1/agents/me");
    expect(new Set(served.map((line) => line.upstream))).toEqual(
      new Set(stack.instances.map((instance) => new URL(instance.url).host)),
    );
  });

  it("count a rate limit once across both instances", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++)
      statuses.push(
        (
          await post(
            index % 2 === 0 ? first : second,
            "/api/v1/agents/register",
            { agent_name: "Limited", agent_type: "bot", operator_type: "company" },
            { "x-forwarded-for": "192.0.2.77" },
          )
        ).status,
      );
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
  });

  it("see a switch turned off by the staff CLI on both instances within the state's second", async () => {
    const turned = await runAdminCommand(switchesCommand, "set", "waitlist", "off");
    expect(turned.code).toBe(0);
    const changed = Date.now();
    const signup = { email: "late@example.com", consent: true, consent_version: PRIVACY_VERSION };
    for (const server of [first, second])
      await expect
        .poll(async () => (await post(server, "/api/v1/waitlist", signup)).status, { timeout: 5_000, interval: 100 })
        .toBe(503);
    // The documented bound is the one-second cache; a loaded machine adds its own delay on top.
    expect(Date.now() - changed).toBeLessThan(3_000);
    expect((await runAdminCommand(switchesCommand, "set", "waitlist", "on")).code).toBe(0);
  });

  it("serve the build's files from nginx, coded where the client accepts gzip, and the live parts from the instances", async () => {
    const page = await fetch(`${stack.front.url}/docs/quickstart`, { headers: { "accept-encoding": "gzip" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-encoding")).toBe("gzip");
    expect(page.headers.get("cache-control")).toBe("public, max-age=60");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const direct = await fetch(`${first.url}/docs/quickstart`, { headers: { "accept-encoding": "identity" } });
    expect(await page.text()).toBe(await direct.text());
    const docs = await fetch(`${stack.front.url}/api/v1/docs`);
    expect(docs.headers.get("content-type")).toBe("application/json");
    expect(docs.headers.get("access-control-allow-origin")).toBe("*");
    const markdown = await fetch(`${stack.front.url}/docs/quickstart`, { headers: { accept: "text/markdown" } });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const config = await fetch(`${stack.front.url}/api/v1/config`);
    expect(config.status).toBe(200);
    expect((await fetch(`${stack.front.url}/capabilities.json`)).status).toBe(200);
    const status = (await (await fetch(`${stack.front.url}/status.json`)).json()) as {
      components: Record<string, string>;
    };
    expect(status.components.database).toBe("configured");
  });

  it("send each static file with the head an instance sends it with, bar what each server writes itself", async () => {
    // Vary differs by design: an instance also offers Brotli copies, the front only gzip ones.
    const own = new Set([...NGINX_OWN_HEADERS, "vary"].filter((name) => name !== "content-type"));
    const head = async (url: string) =>
      [...(await fetch(url, { headers: { "accept-encoding": "identity" } })).headers]
        .filter(([name]) => !own.has(name))
        // The instances let forms post to the local fake provider (STRIPE_API_BASE, refused in production);
        // the front's rules come from the build, which names the real provider only.
        .map(([name, value]) => [name, value.replace(/ http:\/\/127\.0\.0\.1:\d+/, "")])
        .sort(([a], [b]) => a.localeCompare(b));
    for (const path of [
      "/",
      "/docs/quickstart",
      "/docs/quickstart.md",
      "/.well-known/api-catalog",
      "/api/v1/docs",
      "/llms.txt",
    ])
      expect(await head(`${stack.front.url}${path}`), path).toEqual(await head(`${first.url}${path}`));
  });
});
