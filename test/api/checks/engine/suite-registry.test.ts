import { describe, expect, it } from "vitest";
import { CHECK_SUITE, SUITE_VERSION } from "../../../../api/checks/engine/suite/registry.ts";
import { CheckIdSchema } from "../../../../src/schemas/report.ts";

const CATALOGUE_IDS = [
  "http.home-200",
  "http.https",
  "http.hsts",
  "http.soft404",
  "http.bot-ua-parity",
  "http.security-headers",
  "meta.noai",
  "robots.exists",
  "robots.sitemap",
  "llms.exists",
  "llms.structure",
  "llms.links-resolve",
  "llms.full",
  "link.headers",
  "link.html",
  "catalog.api",
  "catalog.ai",
  "agents-md",
  "md.negotiate",
  "md.twin",
  "md.quality",
  "page.ssr",
  "page.meta",
  "page.jsonld",
  "policy.ai-bots",
  "policy.content-signals",
  "policy.webbotauth",
  "openapi.found",
  "openapi.valid",
  "mcp.card",
  "mcp.live",
  "a2a.card",
  "skills.index",
  "skills.digests",
  "oauth.as",
  "oauth.prm",
  "agents-json",
  "api.problem-json",
  "api.ratelimit",
  "wk.delivery",
  "wk.consistency",
  "schemas.valid",
  "security.txt",
  "freshness",
  "commerce.pricing",
  "commerce.protocols",
  "commerce.ap2",
  "dns.aid",
  "page.semantic",
  "page.headings",
  "page.img-alt",
  "webmcp.tools",
  "webmcp.valid",
  "auth-md",
  "llms.describedby",
  "mcp.registry",
  "policy.content-usage",
  "commerce.acp",
  "commerce.x402",
  "render.content",
  "render.jsonld",
  "render.soft404",
  "render.webmcp",
  "render.webmcp-valid",
  "render.agent-tree",
  "render.layout-shift",
];

describe("the check suite", () => {
  it("is versioned", () => {
    expect(SUITE_VERSION).toMatch(/^\d{4}\.\d{1,2}\.\d+$/);
  });

  it("holds every catalogue check the brief names, each id once", () => {
    const ids = CHECK_SUITE.map((check) => check.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...CATALOGUE_IDS].sort());
    expect(ids.length).toBeGreaterThanOrEqual(38);
  });

  it.each(CHECK_SUITE.map((check) => [check.id, check] as const))(
    "gives %s a title, remediation, prompt and spec URLs",
    (id, check) => {
      expect(CheckIdSchema.safeParse(id).success).toBe(true);
      expect(check.title.length).toBeGreaterThan(10);
      expect(check.remediation.length).toBeGreaterThan(30);
      expect(check.prompt.length).toBeGreaterThan(30);
      expect(check.specUrls.length).toBeGreaterThan(0);
      for (const url of check.specUrls) expect(URL.canParse(url)).toBe(true);
      expect(check.profiles === "all" || check.profiles.length > 0).toBe(true);
      expect(["standard", "draft", "proposal"]).toContain(check.maturity);
    },
  );
});
