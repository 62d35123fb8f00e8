import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentMonitor, MonitorView } from "../../../src/schemas/responses/monitors.ts";
import { bearer, expectProblem } from "../../helpers/agents.ts";
import { connectMcp } from "../../helpers/mcp-client.ts";
import { type ChangingSite, type MonitorBed, startChangingSite, startMonitorBed } from "../../helpers/monitors.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

let bed: MonitorBed;
let site: ChangingSite;
let watcher: string;
let other: string;
let plain: string;

beforeAll(async () => {
  site = await startChangingSite("exemplary");
  bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: "127.0.0.1", RATE_LIMITS: "monitors=100/60" });
  watcher = await bed.agentToken();
  other = await bed.agentToken();
  plain = await bed.agentToken("unscoped");
});
afterAll(async () => {
  await bed?.close();
  await site?.close();
});

const create = (token: string, domain: string) =>
  bed.send("POST", "/api/v1/agents/monitors", { domain }, bearer(token));

describe("an agent's own monitors", () => {
  it("are created with the scope monitors:write and no e-mail, scheduled at once; the same site again is the same monitor", async () => {
    const first = await create(watcher, site.origin);
    expect(first.status).toBe(201);
    const monitor = (await first.json()) as AgentMonitor;
    expect(validateAgainstPublishedSchema("agent-monitor", monitor)).toEqual([]);
    expect(first.headers.get("location")).toBe(`/api/v1/monitors/${monitor.id}`);
    expect(monitor).toMatchObject({ alerts: "none", state: "active", frequency: "weekly", latest: null });
    const again = await create(watcher, site.origin);
    expect(again.status).toBe(200);
    expect(((await again.json()) as AgentMonitor).id).toBe(monitor.id);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1, alerts: 0 });
    expect(await bed.deliver()).toEqual([]);
  });

  it("need the scope: a self-registered token is refused with 403 naming it", async () => {
    const refused = await create(plain, site.origin);
    await expectProblem(refused, 403, "insufficient-scope");
    expect(refused.headers.get("www-authenticate")).toContain('scope="monitors:write"');
    await expectProblem(
      await bed.send("POST", "/api/v1/agents/monitors", { domain: site.origin }),
      401,
      "unauthorized",
    );
  });

  it("stop at the free plan's five sites, and are listed and read by their agent only", async () => {
    for (let port = 1; port <= 4; port++) expect((await create(watcher, `http://127.0.0.1:${port}`)).status).toBe(201);
    await expectProblem(await create(watcher, "http://127.0.0.1:5"), 409, "monitor-limit-reached");
    const list = (await (await bed.send("GET", "/api/v1/agents/monitors", undefined, bearer(watcher))).json()) as {
      data: AgentMonitor[];
    };
    expect(validateAgainstPublishedSchema("agent-monitor-list", list)).toEqual([]);
    expect(list.data).toHaveLength(5);
    const id = list.data.find((monitor) => monitor.origin === site.origin)?.id ?? "";
    const mine = await bed.send("GET", `/api/v1/agents/monitors/${id}`, undefined, bearer(watcher));
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as MonitorView).history.data).toHaveLength(1);
    await expectProblem(
      await bed.send("GET", `/api/v1/agents/monitors/${id}`, undefined, bearer(other)),
      404,
      "not-found",
    );
  });
});

describe("the MCP tools, through the official client", () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectMcp(`${bed.base}/mcp`, { authorization: `Bearer ${other}` });
  });
  afterAll(() => client?.close());

  it("list create_monitor, list_monitors and read_monitor with their schemas", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["create_monitor", "list_monitors", "read_monitor"]));
    const create = tools.find((tool) => tool.name === "create_monitor");
    expect(create?.inputSchema.required).toEqual(["domain"]);
    expect(create?._meta).toMatchObject({ "dev.agentready/authentication": "bearer" });
  });

  it("create a monitor, list it and read its history, under the token's registration", async () => {
    const created = await client.callTool({
      name: "create_monitor",
      arguments: { domain: site.origin, frequency: "daily" },
    });
    expect(created.isError).toBeFalsy();
    const monitor = created.structuredContent as AgentMonitor;
    expect(monitor).toMatchObject({ frequency: "daily", alerts: "none" });
    await bed.t.services.scheduler.runDue();
    const listed = await client.callTool({ name: "list_monitors", arguments: {} });
    expect((listed.structuredContent as { data: AgentMonitor[] }).data.map((item) => item.id)).toEqual([monitor.id]);
    const read = await client.callTool({ name: "read_monitor", arguments: { id: monitor.id, limit: "1" } });
    const view = read.structuredContent as MonitorView;
    expect(view.history.data).toHaveLength(1);
    expect(view.history.data[0]).toMatchObject({ outcome: "checked", suite_version: expect.any(String) });
    expect(Object.keys(view.history.data[0]?.checks ?? {}).length).toBeGreaterThan(20);
  });

  it("answer a problem for another agent's monitor and for a call without the scope", async () => {
    const list = (await (await bed.send("GET", "/api/v1/agents/monitors", undefined, bearer(watcher))).json()) as {
      data: AgentMonitor[];
    };
    const foreign = await client.callTool({ name: "read_monitor", arguments: { id: list.data[0]?.id ?? "" } });
    expect(foreign.isError).toBe(true);
    expect(JSON.parse((foreign.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({ code: "not-found" });
    const unscoped = await connectMcp(`${bed.base}/mcp`, { authorization: `Bearer ${plain}` });
    const refused = await unscoped.callTool({ name: "create_monitor", arguments: { domain: site.origin } });
    expect(JSON.parse((refused.content as { text: string }[])[0]?.text ?? "{}")).toMatchObject({
      code: "insufficient-scope",
    });
    await unscoped.close();
  });
});
