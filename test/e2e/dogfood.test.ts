import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";

let server: RunningServer;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "dogfood-"));
  const { port } = testBuild();
  // The one allowance the checker gets: this server itself, on loopback.
  server = await startServer({
    DATABASE_URL: `file:${join(dir, "service.db")}`,
    CHECKS_ALLOWED_TARGETS: `127.0.0.1:${port}`,
  });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Finding {
  id: string;
  status: string;
  message: string;
}

describe("the service checked by its own readiness checker", () => {
  it("passes every applicable check: 100 %, nothing failing, warning or erroring", async () => {
    const response = await fetch(`${server.url}/api/v1/checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: server.url }),
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as {
      score: { percent: number };
      level: { value: number; name: string; next: unknown };
      requests: number;
      findings: Finding[];
      profile: { applied: string[] };
    };
    const notPassing = report.findings
      .filter((finding) => finding.status !== "pass" && finding.status !== "n/a")
      .map((finding) => `${finding.status} ${finding.id}: ${finding.message}`);
    expect(notPassing).toEqual([]);
    expect(report.score.percent).toBe(100);
    expect(report.requests).toBeLessThanOrEqual(60);
    expect(report.profile.applied).toEqual(expect.arrayContaining(["docs", "api", "agent"]));
    // Our own key directory passes our own Web Bot Auth check, its possession proof verified (not merely present).
    const webBotAuth = report.findings.find((finding) => finding.id === "policy.webbotauth");
    expect(webBotAuth?.status).toBe("pass");
    expect(webBotAuth?.message).toMatch(/1 usable key\(s\), 1 with a verified possession proof/);
    // OAuth metadata (RFC 9728 and RFC 8414) beside Web Bot Auth: level 5, Agent-Native.
    const status = (id: string) => report.findings.find((finding) => finding.id === id);
    expect(status("oauth.prm")).toMatchObject({
      status: "pass",
      message: `resource ${server.url}, 1 authorization server(s)`,
    });
    expect(status("oauth.as")).toMatchObject({ status: "pass", message: `issuer ${server.url} with S256 PKCE` });
    expect(report.level).toEqual({ value: 5, name: "Agent-Native", next: null });
  });

  it("lists every OAuth metadata document in the API catalog and in the home page's Link header", async () => {
    const metadata = [
      "/.well-known/oauth-authorization-server",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-protected-resource/mcp/agent",
    ];
    const catalog = JSON.stringify(await (await fetch(`${server.url}/.well-known/api-catalog`)).json());
    const link = (await fetch(`${server.url}/`)).headers.get("link") ?? "";
    for (const path of metadata) {
      expect(catalog, path).toContain(`"${server.url}${path}"`);
      expect(link, path).toContain(`<${path}>`);
      const document = await fetch(`${server.url}${path}`);
      expect(document.status, path).toBe(200);
    }
  });

  it("renders its own pages through the checker's guard, and every rendered check passes or is n/a", async () => {
    const response = await fetch(`${server.url}/api/v1/checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: server.url, render: true }),
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as {
      score: { percent: number };
      render: { status: string; pages: Array<{ role: string; status: number }> };
      findings: Finding[];
    };
    expect(report.render.status).toBe("rendered");
    expect(report.render.pages.map((page) => [page.role, page.status])).toEqual([
      ["home", 200],
      ["probe", 404],
      ["deep", 200],
    ]);
    const rendered = report.findings.filter((finding) => finding.id.startsWith("render."));
    expect(rendered.length).toBeGreaterThanOrEqual(7);
    const notPassing = rendered
      .filter((finding) => finding.status !== "pass" && finding.status !== "n/a")
      .map((finding) => `${finding.status} ${finding.id}: ${finding.message}`);
    expect(notPassing).toEqual([]);
    for (const id of ["render.content", "render.soft404", "render.agent-tree", "render.layout-shift"])
      expect(rendered.find((finding) => finding.id === id)?.status, id).toBe("pass");
    expect(report.score.percent).toBe(100);
  }, 60_000);
});
