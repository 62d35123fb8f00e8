import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_SUITE, SUITE_VERSION } from "../../../../api/checks/engine/suite/registry.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import { ReadinessResultSchema } from "../../../../src/schemas/report.ts";
import { startAgentReadySite } from "../../../fixtures/sites/agent-ready.ts";
import { startBareSite } from "../../../fixtures/sites/bare.ts";
import { startBrokenSite } from "../../../fixtures/sites/broken.ts";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { startSpaSite } from "../../../fixtures/sites/spa.ts";
import { checkSite, idsWith, messageOf, statusOf } from "./_helpers.ts";

describe("the agent-ready fixture", () => {
  let site: FixtureSite;
  let result: ReadinessResult;
  beforeAll(async () => {
    site = await startAgentReadySite();
    result = await checkSite(site);
  });
  afterAll(() => site.close());

  it("scores 100 with every applicable check passing", () => {
    expect(result.score.percent).toBe(100);
    expect(idsWith(result, "fail")).toEqual([]);
    expect(idsWith(result, "warn")).toEqual([]);
    expect(idsWith(result, "error")).toEqual([]);
  });

  it("is n/a only where the site rightly publishes nothing, the target is local http, or nothing was rendered", () => {
    const rendered = idsWith(result, "n/a").filter((id) => id.startsWith("render."));
    expect(rendered).toEqual(CHECK_SUITE.filter((check) => check.rendered === true).map((check) => check.id));
    expect(
      idsWith(result, "n/a")
        .filter((id) => !id.startsWith("render."))
        .sort(),
    ).toEqual([
      "a2a.card",
      "agents-json",
      "auth-md",
      "commerce.acp",
      "commerce.ap2",
      "commerce.protocols",
      "commerce.x402",
      "dns.aid",
      "http.hsts",
      "http.https",
      "mcp.registry",
      "oauth.as",
      "oauth.prm",
      "page.img-alt",
      "policy.content-usage",
      "webmcp.tools",
      "webmcp.valid",
    ]);
  });

  it("is inferred as every profile and reaches level 4 with the next level's requirements listed", () => {
    expect(result.profile).toEqual({
      inferred: ["content", "docs", "api", "agent", "commerce"],
      applied: ["content", "docs", "api", "agent", "commerce"],
      overridden: false,
      reasons: {
        content: "the homepage is an HTML page",
        docs: 'a Link rel="service-doc" on /',
        api: "an OpenAPI description",
        agent: "an MCP server card",
        commerce: "prices (JSON-LD offers or /pricing.json)",
      },
    });
    expect(result.level.value).toBe(4);
    expect(result.level.next?.name).toBe("Agent-Native");
    expect(result.level.next?.requirements.map((requirement) => requirement.check)).toContain("a2a.card");
  });

  it("proves the MCP endpoint works and the skill digests hold", () => {
    expect(messageOf(result, "mcp.live")).toMatch(/readiness 1\.2\.0 .* 2 documented tool/);
    expect(statusOf(result, "skills.digests")).toBe("pass");
  });

  it("stays within 60 requests and records the suite version", () => {
    expect(result.requests).toBeLessThanOrEqual(60);
    expect(site.requests.length).toBe(result.requests);
    expect(result.suite_version).toBe(SUITE_VERSION);
    expect(() => ReadinessResultSchema.parse(result)).not.toThrow();
  });

  it("keeps an evidence trail with short excerpts for every check that ran", () => {
    const live = result.details.find((detail) => detail.id === "mcp.live");
    const posts = live?.evidence.filter((entry) => entry.request.method === "POST") ?? [];
    expect(posts.map((entry) => entry.response?.status)).toEqual([200, 202, 200]);
    expect(posts[0]?.request.headers.accept).toBe("application/json, text/event-stream");
    expect(live?.evidence.some((entry) => entry.reused && entry.request.url.endsWith("/mcp/server-card"))).toBe(true);
    for (const detail of result.details)
      for (const entry of detail.evidence) expect(entry.response?.excerpt.length ?? 0).toBeLessThanOrEqual(500);
    expect(result.details.find((detail) => detail.id === "robots.exists")?.evidence[0]?.response?.excerpt).toMatch(
      /^User-agent: \*/,
    );
  });

  it("never calls an MCP method other than initialize, notifications/initialized and tools/list", () => {
    const posts = site.requests.filter((request) => request.method === "POST" && request.path === "/mcp");
    expect(posts).toHaveLength(3);
  });

  it("names itself in the User-Agent of every request", () => {
    expect(
      site.requests.every((request) =>
        request.userAgent.includes("AgentReadyBot/1.0 (+https://agent-ready.test/docs/checks/crawler)"),
      ),
    ).toBe(true);
    expect(
      site.requests.filter((request) => /ClaudeBot|ChatGPT-User|PerplexityBot/.test(request.userAgent)),
    ).toHaveLength(3);
  });
});

describe("the bare fixture", () => {
  let site: FixtureSite;
  let result: ReadinessResult;
  beforeAll(async () => {
    site = await startBareSite();
    result = await checkSite(site);
  });
  afterAll(() => site.close());

  it("is judged as a content site, so agent, API and commerce checks are n/a", () => {
    expect(result.profile.inferred).toEqual(["content"]);
    for (const id of [
      "mcp.card",
      "mcp.live",
      "catalog.api",
      "openapi.found",
      "oauth.as",
      "commerce.pricing",
      "skills.index",
    ])
      expect(statusOf(result, id)).toBe("n/a");
  });

  it("fails the discovery files it lacks and passes what a plain page gets right", () => {
    expect(idsWith(result, "pass").sort()).toEqual([
      "http.bot-ua-parity",
      "http.home-200",
      "http.soft404",
      "meta.noai",
      "page.headings",
    ]);
    for (const id of [
      "robots.exists",
      "robots.sitemap",
      "llms.exists",
      "link.headers",
      "md.negotiate",
      "security.txt",
      "policy.content-signals",
    ])
      expect(statusOf(result, id)).toBe("fail");
    expect(messageOf(result, "llms.exists")).toBe("llms.txt is missing (404 at /llms.txt)");
    expect(statusOf(result, "policy.ai-bots")).toBe("warn");
  });

  it("stays at level 0 and says level 1 needs robots.txt, a sitemap or Link headers", () => {
    expect(result.level.value).toBe(0);
    expect(result.level.next?.requirements.map((requirement) => requirement.check).sort()).toEqual([
      "link.headers",
      "robots.exists",
      "robots.sitemap",
    ]);
    expect(result.requests).toBeLessThanOrEqual(60);
  });
});

describe("the SPA fixture", () => {
  let site: FixtureSite;
  let result: ReadinessResult;
  beforeAll(async () => {
    site = await startSpaSite();
    result = await checkSite(site);
  });
  afterAll(() => site.close());

  it("fails the soft-404 check because unknown .json, .txt and .md paths answer 200 HTML", () => {
    expect(statusOf(result, "http.soft404")).toBe("fail");
    expect(messageOf(result, "http.soft404")).toMatch(/\.json, \.txt, \.md\) answer 200 with HTML/);
  });

  it("catches its .txt documents as HTML instead of counting them as found", () => {
    for (const id of ["robots.exists", "llms.exists", "security.txt"]) {
      expect(statusOf(result, id)).toBe("fail");
      expect(messageOf(result, id)).toMatch(/HTML page/);
    }
    expect(result.profile.inferred).toEqual(["content"]);
    expect(statusOf(result, "page.ssr")).toBe("fail");
    expect(result.requests).toBeLessThanOrEqual(60);
  });

  it("fails its .json discovery paths as HTML when judged as an API and agent site", async () => {
    const forced = await checkSite(site, { profile: ["content", "docs", "api", "agent"] });
    expect(forced.profile.overridden).toBe(true);
    for (const id of ["catalog.api", "catalog.ai", "mcp.card", "skills.index", "openapi.found"])
      expect(statusOf(forced, id)).toBe("fail");
    expect(messageOf(forced, "catalog.api")).toMatch(/HTML page/);
    expect(forced.requests).toBeLessThanOrEqual(60);
  });
});

describe("the broken fixture", () => {
  let site: FixtureSite;
  let result: ReadinessResult;
  beforeAll(async () => {
    site = await startBrokenSite();
    result = await checkSite(site);
  });
  afterAll(() => site.close());

  it("fails llms.txt served as text/html but still reads its Markdown and finds the dead links", () => {
    expect(messageOf(result, "llms.exists")).toBe("llms.txt is served as text/html, not text/plain or text/markdown");
    expect(statusOf(result, "llms.structure")).toBe("pass");
    expect(statusOf(result, "llms.links-resolve")).toBe("fail");
    expect(messageOf(result, "llms.links-resolve")).toMatch(
      /\d of \d checked links are dead: \/docs\/guide\.md → 200 HTML/,
    );
  });

  it("fails an api-catalog served as application/json (a MUST of RFC 9727), citing the clause, and flags wrong types in delivery", () => {
    expect(statusOf(result, "catalog.api")).toBe("fail");
    expect(messageOf(result, "catalog.api")).toMatch(
      /served as application\/json, not application\/linkset\+json \(RFC 9727 §4\.2\)/,
    );
    expect(result.details.find((detail) => detail.id === "catalog.api")?.clauses).toContainEqual({
      keyword: "MUST",
      source: "RFC 9727 §4.2",
      problem: "served as application/json, not application/linkset+json",
    });
    expect(statusOf(result, "wk.delivery")).toBe("fail");
    expect(messageOf(result, "wk.delivery")).toMatch(/llms\.txt is served as text\/html/);
  });

  it("fails the stale skill digest and the MCP endpoint that does not answer", () => {
    expect(statusOf(result, "skills.index")).toBe("pass");
    expect(statusOf(result, "skills.digests")).toBe("fail");
    expect(messageOf(result, "skills.digests")).toMatch(/digest mismatch/);
    expect(statusOf(result, "mcp.live")).toBe("fail");
    expect(messageOf(result, "mcp.live")).toBe("initialize answers 404 at /mcp");
  });

  it("fails the soft 404 and the API errors that are not problem+json", () => {
    expect(statusOf(result, "http.soft404")).toBe("fail");
    expect(statusOf(result, "api.problem-json")).toBe("fail");
    // llms.txt alone never makes a docs site: only evidence of need does.
    expect(result.profile.inferred).toEqual(["content", "api", "agent"]);
    expect(idsWith(result, "error")).toEqual([]);
    expect(result.requests).toBeLessThanOrEqual(60);
  });
});
