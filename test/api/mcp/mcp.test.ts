import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../api/platform/log.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { createApp } from "../../../api/wiring/app.ts";
import { MCP_ACCEPT, MCP_CARD_PATHS } from "../../../src/lib/discovery/mcp-card.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { builtSite, validateAgainstPublishedSchema } from "../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.request("/mcp", { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
const initialize = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "1.0.0" } },
};

async function toolsList(): Promise<{ tools: { name: string }[]; _meta: Record<string, unknown> }> {
  const response = await rpc({ jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { tools: { name: string }[]; _meta: Record<string, unknown> } };
  return body.result;
}

describe("the MCP endpoint", () => {
  it("answers initialize with the server the card names, and the catalogue revision in its instructions", async () => {
    const response = await rpc(initialize);
    expect(response.status).toBe(200);
    expect(response.headers.get("ratelimit-policy")).toContain('"mcp"');
    const { result } = (await response.json()) as {
      result: { serverInfo: { name: string; version: string }; instructions: string };
    };
    expect(result.serverInfo).toMatchObject({
      name: t.services.content.service.identifier,
      version: t.services.content.service.version,
    });
    const tools = (await (await t.app.request("/api/v1/tools")).json()) as { revision: string };
    expect(result.instructions).toContain(tools.revision);
  });

  it("accepts a notification with 202 and no body", async () => {
    const response = await rpc(
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("answers every refusal as a problem: wrong method 405, unacceptable Accept 406, not JSON-RPC 422, bad JSON 400", async () => {
    const get = await t.app.request("/mcp");
    await expectProblem(get, 405, "method-not-allowed");
    expect(get.headers.get("allow")).toBe("POST");
    await expectProblem(
      await t.app.request("/mcp", {
        method: "POST",
        headers: { ...MCP_HEADERS, accept: "application/json" },
        body: JSON.stringify(initialize),
      }),
      406,
      "not-acceptable",
    );
    const invalid = await expectProblem(await rpc({ jsonrpc: "1.0", id: 1 }), 422, "validation-failed");
    expect(invalid.errors).toEqual(
      expect.arrayContaining([
        { pointer: "#/jsonrpc", detail: expect.any(String) },
        { pointer: "#/method", detail: "is required" },
      ]),
    );
    await expectProblem(
      await t.app.request("/mcp", { method: "POST", headers: MCP_HEADERS, body: "{" }),
      400,
      "malformed-json",
    );
    await expectProblem(
      await rpc({ jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-protocol-version": "1999-01-01" }),
      400,
      "bad-request",
    );
  });

  it("says in its 406 and in OpenAPI the same Accept a POST must send, whatever else the client sent", async () => {
    for (const accept of [undefined, "application/json", "text/event-stream", "*/*"]) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (accept) headers.accept = accept;
      const problem = await expectProblem(
        await t.app.request("/mcp", { method: "POST", headers, body: JSON.stringify(initialize) }),
        406,
        "not-acceptable",
      );
      expect(problem.detail, accept).toContain(`Accept: ${MCP_ACCEPT}`);
    }
    const openapi = (await (await t.app.request("/openapi.json")).json()) as {
      paths: Record<string, { post?: { description: string; responses: Record<string, { description?: string }> } }>;
    };
    const operation = openapi.paths["/mcp"]?.post;
    expect(operation?.description).toContain(`Accept: ${MCP_ACCEPT}`);
    expect(operation?.description).toContain("406");
    expect(operation?.responses["406"]?.description).toContain(MCP_ACCEPT);
  });

  it("returns a tool's failure as the problem the HTTP API would answer, with a pointer per invalid argument", async () => {
    const response = await rpc({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "read_doc", arguments: { path: "Not A Path", extra: 1 } },
    });
    const { result } = (await response.json()) as {
      result: { isError: boolean; content: { type: string; text: string }[] };
    };
    expect(result.isError).toBe(true);
    const problem = JSON.parse(result.content[0]?.text ?? "{}") as Record<string, unknown>;
    expect(validateAgainstPublishedSchema("problem", problem)).toEqual([]);
    expect(problem).toMatchObject({ status: 422, code: "validation-failed", instance: "/mcp#read_doc" });
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ pointer: "#/path" }),
        { pointer: "#/extra", detail: "is not an allowed property" },
      ]),
    );
  });

  it("asks for the agent token on tools that act for a registration, naming the register_agent tool", async () => {
    for (const name of ["read_agent_standing", "join_agent_waitlist"]) {
      const response = await rpc({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name, arguments: {} } });
      const { result } = (await response.json()) as { result: { isError: boolean; content: { text: string }[] } };
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content[0]?.text ?? "{}"), name).toMatchObject({
        status: 401,
        code: "unauthorized",
        detail:
          "Send an agent token as Authorization: Bearer <token>; get one with the register_agent tool (or from POST /api/v1/agents/register).",
      });
    }
    // Over HTTP the same refusal names the HTTP route.
    const problem = await expectProblem(await t.send("GET", "/api/v1/agents/me"), 401, "unauthorized");
    expect(problem.detail).toBe(
      "Send an agent token as Authorization: Bearer <token>; get one from POST /api/v1/agents/register.",
    );
  });
});

describe("the tools listing", () => {
  it("lists exactly the tools MCP tools/list returns, under the same revision, valid against its published schema", async () => {
    const response = await t.app.request("/api/v1/tools");
    expect(response.status).toBe(200);
    const listing = (await response.json()) as { revision: string; endpoint: string; data: { name: string }[] };
    expect(validateAgainstPublishedSchema("tool-index", listing)).toEqual([]);
    expect(listing.endpoint).toBe(`${t.config.siteUrl}/mcp`);
    const listed = await toolsList();
    expect(listed.tools).toEqual(listing.data);
    expect(listed._meta["dev.agentready/revision"]).toBe(listing.revision);
    expect(response.headers.get("etag")).toBe(`"${listing.revision}"`);
    expect(
      (await t.app.request("/api/v1/tools", { headers: { "if-none-match": `"${listing.revision}"` } })).status,
    ).toBe(304);
  });

  it("revalidates a compressed listing with the ETag it was sent under", async () => {
    const compressed = await t.app.request("/api/v1/tools", { headers: { "accept-encoding": "gzip" } });
    expect(compressed.headers.get("content-encoding")).toBe("gzip");
    const etag = compressed.headers.get("etag") ?? "";
    expect(etag).toMatch(/-gzip"$/);
    const again = await t.app.request("/api/v1/tools", {
      headers: { "accept-encoding": "gzip", "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("vary")).toBe(compressed.headers.get("vary"));
  });

  it("drops a tool whose capability is switched off, and the revision changes with the set", async () => {
    const before = (await (await t.app.request("/api/v1/tools")).json()) as {
      revision: string;
      data: { name: string }[];
    };
    expect(before.data.map((tool) => tool.name)).toContain("run_readiness_check");
    await setSwitch(t.services.database.client, "checks", false, "test", new Date().toISOString());
    try {
      const after = (await (await t.app.request("/api/v1/tools")).json()) as {
        revision: string;
        data: { name: string }[];
      };
      expect(after.data.map((tool) => tool.name)).not.toContain("run_readiness_check");
      expect(after.revision).not.toBe(before.revision);
      expect((await toolsList()).tools.map((tool) => tool.name)).toEqual(after.data.map((tool) => tool.name));
    } finally {
      await setSwitch(t.services.database.client, "checks", true, "test", new Date().toISOString());
    }
  });

  it("answers 503 for the listing and the endpoint, and 404 for the card, while the mcp switch is off", async () => {
    await setSwitch(t.services.database.client, "mcp", false, "test", new Date().toISOString());
    try {
      await expectProblem(await t.app.request("/api/v1/tools"), 503, "form-closed");
      await expectProblem(await rpc(initialize), 503, "form-closed");
      for (const path of MCP_CARD_PATHS) await expectProblem(await t.app.request(path), 404, "not-found");
    } finally {
      await setSwitch(t.services.database.client, "mcp", true, "test", new Date().toISOString());
    }
    expect((await t.app.request(MCP_CARD_PATHS[0])).status).toBe(200);
  });

  it("answers 404 for the listing, the endpoint and the card when no MCP server is published", async () => {
    const { content } = t.services;
    const unpublished = {
      ...content,
      service: { ...content.service, publish: { ...content.service.publish, mcp_server: false } },
    };
    const app = createApp({
      config: t.config,
      log: createLogger("silent"),
      site: await builtSite(),
      services: {
        ...t.services,
        content: unpublished,
        operationDeps: { ...t.services.operationDeps, service: unpublished.service },
      },
    });
    await expectProblem(await app.request("/api/v1/tools"), 404, "not-found");
    await expectProblem(
      await app.request("/mcp", { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(initialize) }),
      404,
      "not-found",
    );
    for (const path of MCP_CARD_PATHS) await expectProblem(await app.request(path), 404, "not-found");
    const agents = (await (await app.request("/agents.json")).json()) as { tools: { mcp: unknown } };
    expect(agents.tools.mcp).toBeNull();
  });
});
