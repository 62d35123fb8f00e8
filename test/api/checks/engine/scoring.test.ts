import { describe, expect, it } from "vitest";
import { computeLevel, type LevelInput } from "../../../../api/checks/engine/levels.ts";
import {
  categoryResults,
  isApplicable,
  isIncomplete,
  parseProfiles,
  scoreResults,
} from "../../../../api/checks/engine/scoring.ts";
import { inferProfiles, profileReasons, type SiteSignals } from "../../../../api/checks/engine/site-facts.ts";
import type { CheckStatus, Severity } from "../../../../src/schemas/report.ts";

const NO_SIGNALS: SiteSignals = {
  htmlHome: false,
  documentation: null,
  llmsTxt: false,
  llmsFull: false,
  markdownAlternate: false,
  openApi: false,
  apiCatalog: false,
  agentsJson: false,
  protectedResource: false,
  mcpCard: false,
  a2aCard: false,
  skillsIndex: false,
  aiCatalog: false,
  webBotAuth: false,
  pricing: false,
  commerceProtocol: false,
};

function scored(status: CheckStatus, severity: Severity = "medium", category: "discovery" | "content" = "discovery") {
  return { definition: { id: `x.${status}`, category, severity }, status };
}

describe("profile inference", () => {
  it("sees a plain HTML site as content only", () => {
    expect(inferProfiles({ ...NO_SIGNALS, htmlHome: true })).toEqual(["content"]);
  });

  it("never infers docs from llms.txt or Markdown alone, which any site can publish", () => {
    expect(
      inferProfiles({ ...NO_SIGNALS, htmlHome: true, llmsTxt: true, llmsFull: true, markdownAlternate: true }),
    ).toEqual(["content"]);
  });

  it("adds docs, api, agent and commerce from evidence of need, and says which", () => {
    const signals = { ...NO_SIGNALS, htmlHome: true, documentation: "a documentation generator (MkDocs)" };
    expect(inferProfiles(signals)).toEqual(["content", "docs"]);
    expect(profileReasons({ ...signals, openApi: true })).toEqual({
      content: "the homepage is an HTML page",
      docs: "a documentation generator (MkDocs)",
      api: "an OpenAPI description",
    });
    expect(inferProfiles({ ...NO_SIGNALS, openApi: true })).toEqual(["api"]);
    expect(inferProfiles({ ...NO_SIGNALS, mcpCard: true })).toEqual(["agent"]);
    expect(inferProfiles({ ...NO_SIGNALS, skillsIndex: true, pricing: true })).toEqual(["agent", "commerce"]);
  });

  it("infers nothing when nothing was found", () => {
    expect(inferProfiles(NO_SIGNALS)).toEqual([]);
  });
});

describe("applicability", () => {
  it("applies 'all' checks to every site and others only when a profile matches", () => {
    expect(isApplicable({ profiles: "all" }, [])).toBe(true);
    expect(isApplicable({ profiles: ["agent"] }, ["content"])).toBe(false);
    expect(isApplicable({ profiles: ["docs", "api"] }, ["content", "api"])).toBe(true);
  });

  it("parses profile lists and 'all', and refuses unknown names", () => {
    expect(parseProfiles("api, content")).toEqual(["content", "api"]);
    expect(parseProfiles("all")).toEqual(["content", "docs", "api", "agent", "commerce"]);
    expect(() => parseProfiles("content,blog")).toThrow("unknown profile(s): blog");
  });
});

describe("the score", () => {
  it("is round(100 × pass / (pass + fail))", () => {
    expect(scoreResults([scored("pass"), scored("pass"), scored("fail")]).percent).toBe(67);
  });

  it("leaves n/a, warn and error out of the denominator", () => {
    const score = scoreResults([scored("pass"), scored("n/a"), scored("warn"), scored("error"), scored("error")]);
    expect(score).toEqual({ percent: 100, pass: 1, fail: 0, warn: 1, na: 1, error: 2, blocked: 0 });
  });

  it("never scores informational checks", () => {
    expect(scoreResults([scored("pass"), scored("fail", "info")])).toEqual({
      percent: 100,
      pass: 1,
      fail: 0,
      warn: 0,
      na: 0,
      error: 0,
      blocked: 0,
    });
  });

  it("leaves blocked checks out of the denominator and counts them apart", () => {
    expect(scoreResults([scored("pass"), scored("fail"), scored("blocked"), scored("blocked")])).toEqual({
      percent: 50,
      pass: 1,
      fail: 1,
      warn: 0,
      na: 0,
      error: 0,
      blocked: 2,
    });
  });

  it("makes a report with one blocked check incomplete, however few errors it has", () => {
    const many = Array.from({ length: 20 }, () => scored("pass"));
    expect(isIncomplete([...many, scored("error")])).toBe(false);
    expect(isIncomplete([...many, scored("blocked", "info")])).toBe(true);
  });

  it("is null when nothing could be scored", () => {
    expect(scoreResults([scored("error"), scored("n/a"), scored("warn")]).percent).toBeNull();
  });

  it("is tallied per category, every category listed", () => {
    const categories = categoryResults([
      scored("pass", "medium", "content"),
      scored("fail", "medium", "content"),
      scored("pass"),
    ]);
    expect(categories.map((category) => category.id)).toEqual([
      "reachability",
      "discovery",
      "content",
      "bot-policy",
      "capabilities",
      "api-hygiene",
      "commerce",
    ]);
    expect(categories.find((category) => category.id === "content")).toMatchObject({ pass: 1, fail: 1, percent: 50 });
    expect(categories.find((category) => category.id === "commerce")?.percent).toBeNull();
  });
});

function level(passing: readonly string[], others: Record<string, CheckStatus> = {}): ReturnType<typeof computeLevel> {
  const ids = [
    "http.home-200",
    "robots.exists",
    "robots.sitemap",
    "link.headers",
    "policy.ai-bots",
    "policy.content-signals",
    "md.negotiate",
    "mcp.card",
    "a2a.card",
    "skills.index",
    "catalog.api",
    "policy.webbotauth",
    "oauth.as",
    "oauth.prm",
  ];
  const results: LevelInput[] = ids.map((id) => ({
    id,
    title: id,
    status: others[id] ?? (passing.includes(id) ? "pass" : "fail"),
    message: "…",
  }));
  return computeLevel(results);
}

describe("the level ladder", () => {
  const L1 = ["http.home-200", "robots.exists", "robots.sitemap"];
  const L2 = [...L1, "policy.ai-bots", "policy.content-signals"];
  const L3 = [...L2, "md.negotiate"];
  const L4 = [...L3, "skills.index"];

  it("is 0 without a working homepage, whatever else passes", () => {
    expect(level(L4.filter((id) => id !== "http.home-200")).value).toBe(0);
  });

  it("climbs one rung at a time: presence, bot policy, markdown, one integration document", () => {
    expect(level(L1)).toMatchObject({ value: 1, name: "Basic Web Presence" });
    expect(level(L2)).toMatchObject({ value: 2, name: "Bot-Aware" });
    expect(level(L3)).toMatchObject({ value: 3, name: "Agent-Readable" });
    expect(level(L4)).toMatchObject({ value: 4, name: "Agent-Integrated" });
  });

  it("is cumulative: an integration document does not lift a site without bot policy", () => {
    expect(level([...L1, "md.negotiate", "mcp.card"]).value).toBe(1);
  });

  it("counts n/a as met for checks that do not apply to the site", () => {
    expect(
      level([...L1, "policy.ai-bots", "skills.index"], { "policy.content-signals": "n/a", "md.negotiate": "n/a" })
        .value,
    ).toBe(4);
  });

  it("needs two of Web Bot Auth, all four integration documents, OAuth metadata for level 5", () => {
    expect(level([...L4, "policy.webbotauth"]).value).toBe(4);
    expect(level([...L4, "policy.webbotauth", "oauth.prm"])).toMatchObject({
      value: 5,
      name: "Agent-Native",
      next: null,
    });
    expect(level([...L4, "mcp.card", "a2a.card", "catalog.api", "oauth.as"]).value).toBe(5);
    expect(level([...L4, "oauth.as", "oauth.prm"]).value).toBe(4);
  });

  it("lists what the next level needs, with each check's current message", () => {
    const next = level(L1).next;
    expect(next).toMatchObject({ value: 2, name: "Bot-Aware" });
    expect(next?.requirements).toEqual([
      { check: "policy.ai-bots", title: "policy.ai-bots", message: "fail: …" },
      { check: "policy.content-signals", title: "policy.content-signals", message: "fail: …" },
    ]);
  });
});
