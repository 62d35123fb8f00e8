import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleSurveyAnswer } from "../../scripts/lib/sample-survey.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { issueStaffToken } from "../helpers/admin-cli.ts";
import { entryArgs } from "../helpers/entry.ts";
import { type DocumentedOperation, type Json, operationsOf, ResponseChecker } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

/**
 * Every operation openapi.json documents, sent to the real server: once as a client that means it
 * (valid parameters and body), and once wrong (an invalid body, an unknown id). Each answer's status
 * must be listed for that operation and its body must validate against the documented schema.
 *
 * No payment key is configured here, so the operations that need the payment provider are exercised
 * in their documented 503 state; their success bodies are covered by the store's own tests against
 * the fake provider.
 */

const execAsync = promisify(execFile);
let dir: string;
let server: RunningServer;
let fixture: FixtureSite;
let document: Json;
let checker: ResponseChecker;
let creditCode: string;
let monitorToken: string;

interface Replay {
  params?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

const json = async (path: string): Promise<Json> => (await (await fetch(`${server.url}${path}`)).json()) as Json;

async function send(documented: DocumentedOperation, replay: Replay): Promise<Response> {
  const url = documented.template.replace(/\{([a-z_]+)\}/g, (_, name: string) => {
    const value = replay.params?.[name];
    if (value === undefined) throw new Error(`${documented.id}: no value for {${name}}`);
    return value;
  });
  const headers: Record<string, string> = {
    ...(replay.body === undefined ? {} : { "content-type": "application/json" }),
    ...replay.headers,
  };
  return fetch(url, {
    method: documented.method,
    headers,
    ...(replay.body === undefined
      ? {}
      : { body: typeof replay.body === "string" ? replay.body : JSON.stringify(replay.body) }),
  });
}

async function issueCreditCode(databaseUrl: string): Promise<string> {
  const { stdout } = await execAsync(process.execPath, [...entryArgs("admin"), "credits", "issue", "1"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
  });
  const code = /Code:\s+(\S+)/.exec(stdout)?.[1];
  if (!code) throw new Error(`no code in: ${stdout}`);
  return code;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "replay-"));
  fixture = await startAgentReadySite();
  const databaseUrl = `file:${join(dir, "service.db")}`;
  server = await startServer({ DATABASE_URL: databaseUrl, CHECKS_ALLOWED_TARGETS: fixture.hostPort });
  const response = await fetch(`${server.url}/openapi.json`);
  expect(response.headers.get("content-type")).toBe("application/vnd.oai.openapi+json");
  document = (await response.json()) as Json;
  checker = new ResponseChecker(document);
  creditCode = await issueCreditCode(databaseUrl);
  // Self-registered tokens lack monitors:write: staff grant it.
  monitorToken = await issueStaffToken(
    { DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    "Replay watcher",
    "monitors:write",
  );
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a client that means it sends, per operation: parameters from the live documents, valid bodies, a token. */
async function plans(): Promise<Record<string, Replay>> {
  const docs = (await json("/api/v1/docs")) as { data: { path: string }[] };
  const doc = docs.data[0]?.path ?? "";
  const archivedDoc = (await Promise.all(docs.data.map((entry) => json(`/api/v1/docs/${entry.path}`)))).flatMap(
    (page) =>
      (page.versions as { url: string; superseded_at: string | null }[]).filter(
        (version) => version.superseded_at !== null,
      ),
  )[0];
  const policies = (await json("/api/v1/policies/privacy")) as {
    version: string;
    versions: { url: string; superseded_at: string | null }[];
  };
  const archivedPolicy = policies.versions.find((version) => version.superseded_at !== null);
  const archive = (url: string | undefined) => {
    const [, , , , , key = "", version = ""] = new URL(url ?? "http://x/").pathname.split("/");
    return { key, version };
  };
  const products = (await json("/api/v1/products")) as { data: { id: string }[] };
  const articles = (await json("/api/v1/articles")) as { data: { slug: string }[] };
  const records = (await json("/api/v1/records")) as { data: { slug: string }[] };
  const skills = (await json("/.well-known/agent-skills/index.json")) as { skills: { name: string }[] };
  const registered = await fetch(`${server.url}/api/v1/agents/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ agent_name: "Replayer", agent_type: "test", operator_type: "company" }),
  });
  const { token } = (await registered.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}` };
  const report = (await (
    await fetch(`${server.url}/api/v1/checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: fixture.origin }),
    })
  ).json()) as { id: string };
  const consent_version = policies.version;
  const watching = { authorization: `Bearer ${monitorToken}` };
  const monitor = (await (
    await fetch(`${server.url}/api/v1/agents/monitors`, {
      method: "POST",
      headers: { "content-type": "application/json", ...watching },
      body: JSON.stringify({ domain: fixture.origin }),
    })
  ).json()) as { id: string };
  // A well-formed link token that no server signed: the documented 410.
  const forgedLink = `v1.${crypto.randomUUID()}.${Math.floor(Date.now() / 1000) + 3600}.${"A".repeat(43)}`;
  return {
    getDoc: { params: { path: doc } },
    getArchivedDoc: { params: archive(archivedDoc?.url) },
    getArchivedPolicy: { params: archive(archivedPolicy?.url) },
    getPolicy: { params: { slug: "privacy" } },
    getArticle: { params: { slug: articles.data[0]?.slug ?? "" } },
    getRecord: { params: { slug: records.data[0]?.slug ?? "" } },
    getSkill: { params: { slug: skills.skills[0]?.name ?? "" } },
    getSchema: { params: { file: "agents.json" } },
    startStoreCheckout: { params: { id: products.data[0]?.id ?? "" }, body: { email: "buyer@example.com" } },
    getPurchaseSession: { params: { session_id: "cs_test_replay" } },
    downloadPurchase: { params: { session_id: "cs_test_replay" } },
    downloadByLink: { params: { token: "not-a-signed-token" } },
    runCheck: { body: { domain: fixture.origin } },
    getCheck: { params: { id: report.id } },
    checkoutCheck: { params: { id: report.id }, body: { purchase: "unlock", email: "buyer@example.com" } },
    redeemCredit: { params: { id: report.id }, body: { code: creditCode } },
    registerAgent: { body: { agent_name: "Second replayer", agent_type: "test", operator_type: "individual" } },
    joinAgentWaitlist: {
      headers: auth,
      body: {
        agent_name: "Replayer",
        agent_type: "test",
        operator_type: "company",
        use_cases: ["read docs"],
        capabilities: ["read"],
        tools_used: ["fetch"],
        consent_version,
      },
    },
    answerAgentSurvey: { headers: auth, body: sampleSurveyAnswer() },
    getAgentStanding: { headers: auth },
    joinWaitlist: { body: { email: "person@example.com", consent: true, consent_version } },
    callMcp: {
      headers: { accept: "application/json, text/event-stream" },
      body: {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "replay", version: "1.0.0" } },
      },
    },
    receiveStripeWebhook: { body: { id: "evt_replay", type: "ping" } },
    requestMonitor: { body: { domain: fixture.origin, email: "watcher@example.com", frequency: "daily" } },
    confirmMonitor: { body: { token: forgedLink } },
    unsubscribeMonitor: { body: { token: forgedLink } },
    getMonitor: { params: { id: monitor.id } },
    createAgentMonitor: { headers: watching, body: { domain: fixture.origin } },
    listAgentMonitors: { headers: watching },
    getAgentMonitor: { headers: watching, params: { id: monitor.id } },
    getMonitorBadge: { params: { domain: new URL(fixture.origin).host } },
  };
}

/** The same client getting it wrong: unknown ids, invalid bodies, no token. */
function mistakes(documented: DocumentedOperation, plan: Replay): Replay | null {
  const params = Object.fromEntries(
    Object.keys(plan.params ?? {}).map((name) => [
      name,
      name === "id" && documented.id.includes("Check") ? "00000000-0000-4000-8000-000000000000" : "no-such-thing",
    ]),
  );
  if (documented.operation.requestBody)
    return { params: { ...plan.params }, body: { unexpected: true }, headers: { ...plan.headers } };
  if (Object.keys(params).length > 0) return { params, headers: { ...plan.headers } };
  // Only an operation that names a credential (public ones say `security: []`) has "no token" to get wrong.
  if (Array.isArray(documented.operation.security) && documented.operation.security.length > 0) return {};
  return null;
}

describe("openapi.json, replayed against the running server", () => {
  it("validates as OpenAPI 3.1 with an independent validator", async () => {
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("gets a documented status and a body that matches the document for every operation, used right and wrong", async () => {
    const planned = await plans();
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(40);
    const problems: string[] = [];
    const statuses: string[] = [];
    for (const documented of operations) {
      const plan = planned[documented.id] ?? {};
      const wrong = mistakes(documented, plan);
      for (const replay of wrong ? [plan, wrong] : [plan]) {
        const response = await send(documented, replay);
        statuses.push(`${documented.id} ${response.status}`);
        problems.push(...(await checker.check(documented, response)));
      }
    }
    expect(problems).toEqual([]);
    // The happy paths that can succeed here did.
    for (const expected of [
      "runCheck 200",
      "getCheck 200",
      "redeemCredit 200",
      "registerAgent 201",
      "joinAgentWaitlist 201",
      "answerAgentSurvey 201",
      "getAgentStanding 200",
      "joinWaitlist 202",
      "callMcp 200",
      "listTools 200",
      "getMcpServerCard 200",
      "getOpenApi 200",
      "requestMonitor 202",
      "createAgentMonitor 200",
      "getMonitor 200",
      "getAgentMonitor 200",
      "listAgentMonitors 200",
      "getMonitorBadge 200",
      "getMonitorBadge 404",
    ]) {
      expect(statuses).toContain(expected);
    }
    // Without a payment key, what needs the provider answers its documented 503.
    for (const expected of ["startStoreCheckout 503", "receiveStripeWebhook 503"]) expect(statuses).toContain(expected);
  }, 120_000);

  it("offers the readiness report as Markdown too, as documented", async () => {
    const report = (await (
      await fetch(`${server.url}/api/v1/checks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ domain: fixture.origin }),
      })
    ).json()) as { id: string };
    const documented = operationsOf(document).find((operation) => operation.id === "getCheck");
    if (!documented) throw new Error("getCheck is not documented");
    const response = await send(documented, { params: { id: report.id }, headers: { accept: "text/markdown" } });
    expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await checker.check(documented, response)).toEqual([]);
  }, 60_000);
});
