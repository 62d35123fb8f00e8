import { describe, expect, it } from "vitest";
import { renderMarkdownReport } from "../../../../api/checks/engine/render-markdown.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";

const RESULT: ReadinessResult = {
  suite_version: "2026.11.0",
  target: { input: "example.com", origin: "https://example.com" },
  checked_at: "2026-11-22T10:00:00.000Z",
  duration_ms: 812,
  requests: 31,
  profile: {
    inferred: ["content", "docs"],
    applied: ["content", "docs"],
    overridden: false,
    reasons: { content: "the homepage is an HTML page", docs: "a documentation generator (Docusaurus v3.5.2)" },
  },
  score: { percent: 50, pass: 1, fail: 1, warn: 1, na: 0, error: 1, blocked: 0 },
  incomplete: false,
  blocked: null,
  render: null,
  level: {
    value: 1,
    name: "Basic Web Presence",
    next: {
      value: 2,
      name: "Bot-Aware",
      requirements: [{ check: "policy.content-signals", title: "Signals", message: "fail: none" }],
    },
  },
  categories: [],
  findings: [
    {
      id: "robots.exists",
      title: "robots.txt exists",
      category: "discovery",
      severity: "high",
      status: "pass",
      message: "ok",
    },
    {
      id: "llms.exists",
      title: "llms.txt is served as text",
      category: "discovery",
      severity: "high",
      status: "warn",
      message: "served as text/html",
    },
    {
      id: "policy.content-signals",
      title: "Content Signals",
      category: "bot-policy",
      severity: "medium",
      status: "fail",
      message: "no Content-Signal line",
      duration_ms: 42,
      requests: 1,
      reused: 2,
    },
    {
      id: "security.txt",
      title: "security.txt",
      category: "api-hygiene",
      severity: "low",
      status: "error",
      message: "timed out",
    },
  ],
  details: [
    {
      id: "llms.exists",
      evidence: [],
      remediation: "Serve it as text/plain.",
      prompt: "Fix llms.txt",
      spec_urls: ["https://llmstxt.org/"],
      clauses: [],
    },
    {
      id: "policy.content-signals",
      evidence: [],
      remediation: "Add a Content-Signal line.",
      prompt: "Add this:\n```\nContent-Signal: search=yes\n```",
      spec_urls: [],
      clauses: [{ keyword: "MUST", source: "contentsignals.org §3", problem: "no Content-Signal line" }],
    },
  ],
};

describe("renderMarkdownReport", () => {
  const markdown = renderMarkdownReport(RESULT);

  it("starts with the origin, the score and the level", () => {
    expect(markdown.startsWith("# Agent-readiness fixes for https://example.com\n")).toBe(true);
    expect(markdown).toContain("Score: **50/100**");
    expect(markdown).toContain("Level: **1 — Basic Web Presence** (next: 2 — Bot-Aware)");
  });

  it("says what evidence each profile was inferred from", () => {
    expect(markdown).toContain(
      "- Profiles: content, docs (inferred) — content: the homepage is an HTML page; docs: a documentation generator (Docusaurus v3.5.2)",
    );
  });

  it("has one section per failing or warning check, failures first, and none for passes", () => {
    const headings = markdown.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual([
      "## FAIL: Content Signals (`policy.content-signals`, medium)",
      "## WARN: llms.txt is served as text (`llms.exists`, high)",
      "## Not checked (blocked, scanner or network errors)",
      "## Every check",
    ]);
  });

  it("cites the clause each verdict rests on, with its keyword", () => {
    expect(markdown).toContain("- MUST (contentsignals.org §3): no Content-Signal line");
  });

  it("lists what each check cost in time and requests", () => {
    expect(markdown).toContain("| `policy.content-signals` | fail | 42 ms, 1 request, 2 reused |");
  });

  it("says whether the pages were rendered, and why not when they could not be", () => {
    expect(markdown).not.toContain("- Rendered:");
    const unavailable = renderMarkdownReport({
      ...RESULT,
      render: {
        status: "unavailable",
        note: "not rendered: no Chromium at /usr/bin/chromium (install Debian's chromium package, or set CHROMIUM_PATH); the static report stands",
        user_agent: null,
        pages: [],
        requests: 0,
        connections: 0,
        bytes: 0,
        hosts: 0,
        refused: 0,
        duration_ms: 0,
      },
    });
    expect(unavailable).toContain("- Rendered: not rendered: no Chromium at /usr/bin/chromium");
  });

  it("marks an incomplete report and shows no score for it", () => {
    const incomplete = renderMarkdownReport({
      ...RESULT,
      incomplete: true,
      score: { ...RESULT.score, percent: null, error: 3 },
    });
    expect(incomplete).toContain("Score: **incomplete: 3 checks could not reach a verdict");
    expect(incomplete).toContain("- Report: **incomplete**");
    expect(incomplete).not.toMatch(/\d+\/100/);
  });

  it("puts each prompt in a fence that the prompt's own backticks cannot close", () => {
    expect(markdown).toContain("````text\nAdd this:\n```\nContent-Signal: search=yes\n```\n````");
    expect(markdown).toContain("**Fix:** Add a Content-Signal line.");
  });
});
