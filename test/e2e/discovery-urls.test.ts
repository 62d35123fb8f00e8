import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/lib/registry.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { advertisedUrls, list, text } from "../helpers/advertised-urls.ts";
import { isJson, type Json } from "../helpers/openapi.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let dir: string;
let databaseUrl: string;
let server: RunningServer;

const essence = (type: string | null | undefined) => (type ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
const get = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, server.url), { headers });
async function json(path: string): Promise<Json> {
  const response = await get(path);
  expect(response.status, path).toBe(200);
  const value: unknown = await response.json();
  if (!isJson(value)) throw new Error(`${path} is not a JSON object`);
  return value;
}

async function admin(...args: string[]): Promise<void> {
  const result = await runAdmin({ DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" }, ...args);
  if (result.code !== 0) throw new Error(`admin ${args.join(" ")} failed: ${result.stderr}`);
}

/** Values for templated URLs, from the documents themselves. */
async function fill(url: string): Promise<string> {
  if (!url.includes("{")) return url;
  const docs = list((await json("/api/v1/docs")).data);
  const products = list((await json("/api/v1/products")).data);
  return url
    .replace("{path}", text(docs[0]?.path))
    .replace("/checks/{id}", "/checks/00000000-0000-4000-8000-000000000000")
    .replace("{id}", text(products[0]?.id))
    .replace("{session_id}", "cs_test_discovery")
    .replace("{token}", "not-a-token")
    .replace("{slug}", "privacy")
    .replace("{file}", "agents.json");
}

/** The statuses the registry lets an operation answer; empty when the URL is not an operation. */
function documentedStatuses(url: string, method: string): number[] {
  const path = new URL(url).pathname;
  const operation = OPERATIONS.find(
    (candidate) =>
      candidate.method === method &&
      new RegExp(
        `^${candidate.path
          .replace(/[.]/g, "\\.")
          .replace(/\{path\}/, ".+")
          .replace(/\{[a-z_]+\}/g, "[^/]+")}$`,
      ).test(path),
  );
  return operation ? [...operation.statuses] : [];
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "discovery-"));
  databaseUrl = `file:${join(dir, "service.db")}`;
  // The methods test below sends hundreds of misses under /api/: their own limit must not turn them into 429s.
  server = await startServer({ DATABASE_URL: databaseUrl, RATE_LIMITS: "api-misses=5000/60" });
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("every URL the discovery files advertise", () => {
  it("answers as advertised: on this origin, with the method, status, content type and authentication stated", async () => {
    const adverts = await advertisedUrls(server.url);
    expect(adverts.length).toBeGreaterThan(100);
    expect(new Set(adverts.map((advert) => advert.source.split(" ")[0])).size).toBeGreaterThanOrEqual(10);
    const failures: string[] = [];
    const seen = new Set<string>();
    for (const advert of adverts) {
      const key = `${advert.method} ${advert.url} ${advert.type ?? ""} ${advert.authentication ?? ""}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const where = `${advert.source}: ${advert.method} ${advert.url}`;
      if (new URL(advert.url).origin !== new URL(server.url).origin) {
        failures.push(`${where} is on another origin`);
        continue;
      }
      const templated = advert.url.includes("{");
      const url = await fill(advert.url);
      if (advert.method === "GET") {
        const response = await get(url, advert.type ? { accept: advert.type } : {});
        await response.arrayBuffer();
        if (advert.authentication === "bearer") {
          if (response.status !== 401 || !response.headers.get("www-authenticate")?.startsWith("Bearer"))
            failures.push(`${where} is advertised as bearer but answered ${response.status} without a token`);
          continue;
        }
        const allowed = templated ? documentedStatuses(advert.url, "GET") : [200];
        if (!allowed.includes(response.status)) failures.push(`${where} → ${response.status}`);
        else if (
          response.status === 200 &&
          advert.type &&
          essence(response.headers.get("content-type")) !== essence(advert.type)
        ) {
          failures.push(
            `${where} declares ${advert.type}, served ${response.headers.get("content-type") ?? "nothing"}`,
          );
        }
        continue;
      }
      const isMcp = new URL(url).pathname === "/mcp";
      const body = isMcp
        ? {
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-11-25",
              capabilities: {},
              clientInfo: { name: "discovery", version: "1" },
            },
          }
        : {};
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
      await response.arrayBuffer();
      if (response.status === 404 && !templated) failures.push(`${where} → 404`);
      if (response.status === 405) failures.push(`${where} → 405: the method is not accepted`);
      if (isMcp && response.status !== 200) failures.push(`${where}: initialize → ${response.status}`);
      if (
        advert.authentication === "bearer" &&
        (response.status !== 401 || !response.headers.get("www-authenticate")?.startsWith("Bearer"))
      )
        failures.push(`${where} is advertised as bearer but answered ${response.status} without a token`);
      if (advert.authentication === "none" && response.status === 401)
        failures.push(`${where} is advertised without authentication but answered 401`);
      if (!documentedStatuses(advert.url, "POST").includes(response.status))
        failures.push(`${where} → ${response.status}, which the registry does not list`);
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("answers every advertised URL with any other method as HTTP says: never 404, a 405 names what it takes", async () => {
    const adverts = await advertisedUrls(server.url);
    const advertised = new Map<string, Set<string>>();
    for (const advert of adverts) {
      if (new URL(advert.url).origin !== new URL(server.url).origin) continue;
      const url = await fill(advert.url);
      advertised.set(url, (advertised.get(url) ?? new Set()).add(advert.method));
    }
    expect(advertised.size).toBeGreaterThan(80);
    const failures: string[] = [];
    for (const [url, methods] of advertised) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (methods.has(method)) continue;
        const response = await fetch(url, {
          method,
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
          ...(method === "GET" ? {} : { body: "{}" }),
        });
        const body = await response.text();
        const where = `${method} ${url} (advertised for ${[...methods].join(", ")})`;
        if (response.status === 404) failures.push(`${where} → 404`);
        if (response.status !== 405) continue;
        const allow = (response.headers.get("allow") ?? "").split(/,\s*/);
        if (allow.includes(method) || !allow.some((allowed) => methods.has(allowed)))
          failures.push(`${where} → 405 with Allow: ${allow.join(", ")}`);
        if (essence(response.headers.get("content-type")) !== "application/problem+json")
          failures.push(`${where} → 405 as ${response.headers.get("content-type")}`);
        else if ((JSON.parse(body) as { code?: string }).code !== "method-not-allowed")
          failures.push(`${where} → 405 with ${body}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it("serves the skills whose bytes hash to the index's digests", async () => {
    const skills = await json("/.well-known/agent-skills/index.json");
    for (const skill of list(skills.skills)) {
      const bytes = new Uint8Array(
        await (
          await get(new URL(text(skill.url), `${server.url}/.well-known/agent-skills/index.json`).href)
        ).arrayBuffer(),
      );
      expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`, text(skill.name)).toBe(skill.digest);
    }
  });

  it("serves the MCP card and the AI catalog byte-identical wherever scanners look, with CORS, Cache-Control and ETag/304", async () => {
    for (const group of [
      ["/mcp/server-card", "/.well-known/mcp/server-card.json", "/.well-known/mcp.json"],
      ["/.well-known/ai-catalog.json", "/.well-known/ard.json"],
    ]) {
      const bodies = await Promise.all(
        group.map(async (path) => {
          const response = await get(path);
          expect(response.status, path).toBe(200);
          expect(response.headers.get("access-control-allow-origin"), path).toBe("*");
          expect(response.headers.get("cache-control"), path).toMatch(/max-age=\d+|no-cache/);
          const etag = response.headers.get("etag") ?? "";
          expect((await get(path, { "if-none-match": etag })).status, path).toBe(304);
          return response.text();
        }),
      );
      expect(new Set(bodies).size).toBe(1);
    }
  });

  it("names one service, one version and one base URL in every document", async () => {
    const card = await json("/mcp/server-card");
    const openapi = await json("/openapi.json");
    const aiCatalog = await json("/.well-known/ai-catalog.json");
    const services = await Promise.all(
      [
        "/capabilities.json",
        "/agents.json",
        "/pricing.json",
        "/terms.json",
        "/roadmap.json",
        "/.well-known/service-state.json",
        "/api/v1",
      ].map(async (path) => (await json(path)).service),
    );
    for (const service of services)
      expect(service).toEqual({ name: "AgentReady", identifier: card.name, version: card.version, url: server.url });
    expect(isJson(openapi.info) ? openapi.info.version : null).toBe(card.version);
    expect(list(openapi.servers)[0]?.url).toBe(`${server.url}/api/v1`);
    expect(list(aiCatalog.entries).map((entry) => entry.version)).toEqual(
      list(aiCatalog.entries).map(() => card.version),
    );
    expect(list(card.remotes)[0]?.url).toBe((await json("/api/v1/tools")).endpoint);
    expect((await (await get("/llms.txt")).text()).split("\n")[0]).toBe("# AgentReady");
  });
});

describe("a capability switched off", () => {
  async function until(check: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("the switch did not show within 5 s");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const features = async () => (await json("/api/v1/config")).features as Record<string, boolean>;
  const mcpToolNames = async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
    return result.tools.map((tool) => tool.name);
  };

  it("leaves capabilities.json, agents.json, the tools listing and MCP tools/list at once, and comes back the same way", async () => {
    const before = JSON.stringify(await json("/capabilities.json"));
    expect(before).toContain('"checks.run"');
    await admin("switches", "set", "checks", "off");
    await until(async () => (await features()).checks === false);
    const capabilities = await json("/capabilities.json");
    expect(list(capabilities.capabilities).map((capability) => capability.id)).not.toContain("checks.run");
    expect(list((await json("/agents.json")).endpoints).map((endpoint) => endpoint.operation)).not.toContain(
      "runCheck",
    );
    expect(list((await json("/api/v1/tools")).data).map((tool) => tool.name)).not.toContain("run_readiness_check");
    expect(await mcpToolNames()).not.toContain("run_readiness_check");
    expect(list((await json("/.well-known/service-state.json")).unavailable)).toContainEqual({
      capability: "checks.run",
      reason: "checks is switched off",
    });
    await admin("switches", "set", "checks", "on");
    await until(async () => (await features()).checks === true);
    expect(await mcpToolNames()).toContain("run_readiness_check");
    expect(JSON.stringify(await json("/capabilities.json"))).toContain('"checks.run"');
  }, 60_000);

  it("takes the MCP server out of every discovery file at once when mcp is switched off", async () => {
    await admin("switches", "set", "mcp", "off");
    try {
      await until(async () => (await features()).mcp === false);
      const capabilityIds = list((await json("/capabilities.json")).capabilities).map((capability) => capability.id);
      expect(capabilityIds).not.toContain("mcp");
      expect(capabilityIds).not.toContain("mcp.tools");
      const agents = await json("/agents.json");
      expect(isJson(agents.tools) ? agents.tools.mcp : undefined).toBeNull();
      for (const path of ["/.well-known/ai-catalog.json", "/.well-known/ard.json"]) {
        expect(
          list((await json(path)).entries).map((entry) => entry.type),
          path,
        ).not.toContain("application/mcp-server-card+json");
      }
      for (const path of ["/mcp/server-card", "/.well-known/mcp/server-card.json", "/.well-known/mcp.json"])
        expect((await get(path)).status, path).toBe(404);
      expect((await get("/api/v1/tools")).status).toBe(503);
      expect(
        (
          await fetch(`${server.url}/mcp`, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
            body: "{}",
          })
        ).status,
      ).toBe(503);
    } finally {
      await admin("switches", "set", "mcp", "on");
    }
    await until(async () => (await features()).mcp === true);
    expect((await get("/.well-known/mcp/server-card.json")).status).toBe(200);
    expect(list((await json("/.well-known/ard.json")).entries).map((entry) => entry.type)).toContain(
      "application/mcp-server-card+json",
    );
  }, 60_000);
});
