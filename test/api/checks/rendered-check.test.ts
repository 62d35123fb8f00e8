import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientRenderedShop } from "../../fixtures/sites/client-rendered.ts";
import { type FixtureSite, startFixtureSite } from "../../fixtures/sites/serve.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { type LoopbackTraps, startLoopbackTraps } from "../../helpers/loopback-traps.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

let traps: LoopbackTraps;
let shop: FixtureSite;
let t: TestApp;
let withoutBrowser: TestApp;

beforeAll(async () => {
  traps = await startLoopbackTraps();
  shop = await startFixtureSite(clientRenderedShop(traps));
  t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: shop.hostPort } });
  withoutBrowser = await createTestApp({
    env: { CHECKS_ALLOWED_TARGETS: shop.hostPort, CHROMIUM_PATH: "/nonexistent/chromium" },
  });
});
afterAll(async () => {
  await t?.close();
  await withoutBrowser?.close();
  await shop?.close();
  await traps?.close();
});

interface Report {
  render: { status: string; note: string; pages: Array<{ role: string }>; requests: number } | null;
  requests: number;
  findings: Array<{ id: string; status: string; message: string }>;
}

const statusOf = (report: Report, id: string) => report.findings.find((finding) => finding.id === id)?.status;

describe('POST /api/v1/checks with "render": true', () => {
  it("renders the site through the guard and reports what only JavaScript shows", async () => {
    const response = await t.send("POST", "/api/v1/checks", { domain: shop.origin, render: true });
    expect(response.status).toBe(200);
    const report = (await response.json()) as Report;
    expect(validateAgainstPublishedSchema("check-report", report)).toEqual([]);
    expect(report.render?.status).toBe("rendered");
    expect(report.render?.pages.map((page) => page.role)).toEqual(["home", "probe", "deep"]);
    expect(statusOf(report, "render.content")).toBe("warn");
    expect(statusOf(report, "render.webmcp")).toBe("pass");
    expect(traps.hits).toEqual([]);
  }, 60_000);

  it("says in the report that this instance has no browser, and keeps the static report", async () => {
    const response = await withoutBrowser.send("POST", "/api/v1/checks", { domain: shop.origin, render: true });
    expect(response.status).toBe(200);
    const report = (await response.json()) as Report;
    expect(report.render).toMatchObject({ status: "unavailable", pages: [], requests: 0 });
    expect(report.render?.note).toMatch(/no Chromium at \/nonexistent\/chromium/);
    expect(statusOf(report, "render.content")).toBe("n/a");
    expect(statusOf(report, "http.soft404")).toBe("fail");
  });

  it("answers 422 with a pointer to a render that is not a boolean", async () => {
    const problem = await expectProblem(
      await t.send("POST", "/api/v1/checks", { domain: shop.origin, render: "yes" }),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "#/render" })]);
  });

  it("takes render from MCP clients too (run_readiness_check)", async () => {
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    };
    const rpc = async (id: number, method: string, params: unknown) =>
      (await (
        await withoutBrowser.app.request("/mcp", {
          method: "POST",
          headers,
          body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
        })
      ).json()) as { result: Record<string, unknown> };
    const listed = (await rpc(1, "tools/list", {})).result.tools as Array<{
      name: string;
      inputSchema: { properties: Record<string, { type?: string }> };
    }>;
    const tool = listed.find((candidate) => candidate.name === "run_readiness_check");
    expect(tool?.inputSchema.properties.render).toMatchObject({ type: "boolean" });
    const called = await rpc(2, "tools/call", {
      name: "run_readiness_check",
      arguments: { domain: shop.origin, render: true },
    });
    const report = called.result.structuredContent as Report;
    expect(report.render?.status).toBe("unavailable");
  });

  it("leaves the report's render null when the scan did not ask", async () => {
    const response = await withoutBrowser.send("POST", "/api/v1/checks", { domain: shop.origin });
    const report = (await response.json()) as Report;
    expect(report.render).toBeNull();
  });
});
