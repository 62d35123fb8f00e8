import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { issueStaffToken } from "../helpers/admin-cli.ts";
import { connectMcp } from "../helpers/mcp-client.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let dir: string;
let server: RunningServer;
let fixture: FixtureSite;
let token: string;
let databaseUrl: string;

const connect = (headers: Record<string, string> = {}): Promise<Client> => connectMcp(`${server.url}/mcp`, headers);

const getJson = async (path: string): Promise<Record<string, unknown>> => {
  const response = await fetch(`${server.url}${path}`);
  expect(response.status, path).toBe(200);
  return (await response.json()) as Record<string, unknown>;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mcp-e2e-"));
  fixture = await startAgentReadySite();
  // The fixture site lives on loopback: the checker may reach it only because it is listed here.
  databaseUrl = `file:${join(dir, "service.db")}`;
  // No scheduled runs: a monitor read twice must not gain a run in between.
  server = await startServer({
    DATABASE_URL: databaseUrl,
    CHECKS_ALLOWED_TARGETS: fixture.hostPort,
    MONITORS_INTERVAL_MS: "0",
  });
  const registered = await fetch(`${server.url}/api/v1/agents/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ agent_name: "MCP tester", agent_type: "test client", operator_type: "individual" }),
  });
  expect(registered.status).toBe(201);
  token = ((await registered.json()) as { token: string }).token;
});
afterAll(async () => {
  await server?.stop();
  await fixture?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the MCP server, through the official SDK client over Streamable HTTP", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect({ authorization: `Bearer ${token}` });
  });
  afterAll(() => client?.close());

  it("introduces itself as the server its card describes", async () => {
    const card = await getJson("/mcp/server-card");
    const info = client.getServerVersion();
    expect(info).toMatchObject({ name: card.name, version: card.version });
    expect((card.remotes as { url: string; supportedProtocolVersions: string[] }[])[0]).toMatchObject({
      url: `${server.url}/mcp`,
    });
  });

  it("lists the same tools, with the same schemas, as /api/v1/tools", async () => {
    const listing = (await getJson("/api/v1/tools")) as { revision: string; data: Record<string, unknown>[] };
    const { tools, _meta } = await client.listTools();
    expect(tools).toEqual(listing.data);
    expect(_meta?.["dev.agentready/revision"]).toBe(listing.revision);
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/Use it /);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
    }
  });

  it("runs a readiness check of a loopback fixture site and reads the report back", async () => {
    const run = await client.callTool({ name: "run_readiness_check", arguments: { domain: fixture.origin } });
    expect(run.isError).toBeFalsy();
    const report = run.structuredContent as {
      id: string;
      locked: boolean;
      score: { percent: number };
      target: { origin: string };
    };
    expect(report).toMatchObject({ locked: true, target: { origin: fixture.origin } });
    expect(report.score.percent).toBe(100);
    const read = await client.callTool({ name: "read_readiness_report", arguments: { id: report.id } });
    expect(read.structuredContent).toEqual(await getJson(`/api/v1/checks/${report.id}`));
  }, 60_000);

  it("answers every read-only tool with what the HTTP API serves (the client checks each result against its output schema)", async () => {
    const { tools } = await client.listTools();
    const docs = (await getJson("/api/v1/docs")) as { data: { path: string }[] };
    const firstDoc = docs.data[0]?.path ?? "";
    const report = (await client.callTool({ name: "run_readiness_check", arguments: { domain: fixture.origin } }))
      .structuredContent as { id: string };
    // The monitor tools need monitors:write, which only staff grant.
    const watching = await issueStaffToken({ DATABASE_URL: databaseUrl }, "Watcher", "monitors:write");
    const watcher = await connect({ authorization: `Bearer ${watching}` });
    const monitor = (await watcher.callTool({ name: "create_monitor", arguments: { domain: fixture.origin } }))
      .structuredContent as { id: string };
    const calls: Record<string, { args: Record<string, unknown>; http: string | null; via?: Client }> = {
      list_docs: { args: {}, http: "/api/v1/docs" },
      read_doc: { args: { path: firstDoc }, http: `/api/v1/docs/${firstDoc}` },
      read_policy: { args: { slug: "privacy" }, http: "/api/v1/policies/privacy" },
      list_products: { args: {}, http: "/api/v1/products" },
      read_pricing: { args: {}, http: "/pricing.json" },
      service_status: { args: {}, http: null },
      read_readiness_report: { args: { id: report.id }, http: `/api/v1/checks/${report.id}` },
      read_agent_standing: { args: {}, http: null },
      list_monitors: { args: {}, http: null, via: watcher },
      read_monitor: { args: { id: monitor.id }, http: `/api/v1/monitors/${monitor.id}`, via: watcher },
    };
    const readOnly = tools
      .filter((tool) => tool.annotations?.readOnlyHint === true)
      .map((tool) => tool.name)
      .sort();
    expect(readOnly).toEqual(Object.keys(calls).sort());
    for (const [name, { args, http, via }] of Object.entries(calls)) {
      const result = await (via ?? client).callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "null")).toEqual(result.structuredContent);
      if (http) expect(result.structuredContent, name).toEqual(await getJson(http));
    }
    const status = (await client.callTool({ name: "service_status", arguments: {} })).structuredContent as {
      checked_at: string;
    };
    const { checked_at: _at, ...state } = await getJson("/.well-known/service-state.json");
    expect({ ...status, checked_at: undefined }).toEqual({ ...state, checked_at: undefined });
    const standing = (await client.callTool({ name: "read_agent_standing", arguments: {} })).structuredContent;
    const me = await fetch(`${server.url}/api/v1/agents/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(standing).toEqual(await me.json());
    await watcher.close();
  }, 60_000);

  it("refuses a token tool without a token, with the HTTP API's problem", async () => {
    const anonymous = await connect();
    try {
      const result = await anonymous.callTool({ name: "join_agent_waitlist", arguments: {} });
      expect(result.isError).toBe(true);
      // As over HTTP, the token is checked before the arguments.
      expect(JSON.parse((result.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({
        code: "unauthorized",
        status: 401,
      });
      const standing = await anonymous.callTool({ name: "read_agent_standing", arguments: {} });
      expect(JSON.parse((standing.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({
        code: "unauthorized",
        status: 401,
      });
    } finally {
      await anonymous.close();
    }
  });
});
