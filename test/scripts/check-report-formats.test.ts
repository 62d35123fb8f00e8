import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { type Baseline, compareWithBaseline, formatComparison } from "../../scripts/check/baseline.ts";
import { toJunit } from "../../scripts/check/junit.ts";
import type { Finding, ReadinessResult } from "../../src/schemas/report.ts";

function finding(id: string, status: Finding["status"], message = `${id} is ${status}`): Finding {
  return { id, title: `Check ${id}`, category: "discovery", severity: "medium", status, message };
}

function report(findings: Finding[]): ReadinessResult {
  return {
    suite_version: "2026.11.1",
    target: { input: "example.com", origin: "https://example.com" },
    checked_at: "2026-11-20T10:00:00.000Z",
    duration_ms: 1234,
    requests: 40,
    incomplete: false,
    blocked: null,
    render: null,
    profile: { inferred: ["content"], reasons: {}, applied: ["content"], overridden: false },
    score: { percent: 50, pass: 1, fail: 1, warn: 0, na: 0, error: 0, blocked: 0 },
    level: { value: 1, name: "Basic Web Presence", next: null },
    categories: [],
    findings,
    details: [],
  };
}

function baseline(findings: Array<[string, Finding["status"]]>, suite = "2026.11.0"): Baseline {
  return {
    suite_version: suite,
    checked_at: "2026-11-01T10:00:00.000Z",
    target: { origin: "https://example.com" },
    findings: findings.map(([id, status]) => ({ id, status, message: "" })),
  };
}

describe("comparing a report with its baseline", () => {
  const before = baseline([
    ["a", "fail"],
    ["b", "warn"],
    ["c", "pass"],
    ["d", "pass"],
    ["e", "warn"],
    ["f", "n/a"],
    ["g", "error"],
    ["h", "pass"],
    ["i", "n/a"],
  ]);
  const now = report([
    finding("a", "pass"),
    finding("b", "pass"),
    finding("c", "warn"),
    finding("d", "fail"),
    finding("e", "fail"),
    finding("f", "fail"),
    finding("g", "warn"),
    finding("h", "error"),
    finding("i", "n/a"),
    finding("new-check", "fail"),
  ]);
  const comparison = compareWithBaseline(before, now);
  const ids = (changes: ReadonlyArray<{ id: string }>): string[] => changes.map((change) => change.id);

  it("calls a verdict that got better fixed and one that got worse regressed", () => {
    expect(ids(comparison.fixed)).toEqual(["a", "b"]);
    expect(ids(comparison.regressed)).toEqual(["c", "d", "e"]);
  });

  it("lists a warn or fail without a verdict in the baseline as new, and an error now as not compared", () => {
    expect(ids(comparison.added)).toEqual(["f", "g", "new-check"]);
    expect(ids(comparison.uncompared)).toEqual(["h"]);
  });

  it("counts every regression and every new failure, but not a new warning", () => {
    expect(comparison.regressions).toBe(5);
    expect(compareWithBaseline(baseline([["x", "pass"]]), report([finding("x", "pass")])).regressions).toBe(0);
  });

  it("prints each group with the transition, and says when the suite version changed", () => {
    const lines = formatComparison(before, now, comparison);
    expect(lines).toContain("  note: suite 2026.11.1 now; checks it added appear as new");
    expect(lines).toContain("  fixed (2):");
    expect(lines).toContain("    d: pass → fail — d is fail");
    expect(lines).toContain("    new-check: absent → fail — new-check is fail");
    expect(lines.at(-1)).toBe("  5 regression(s): a check got worse or a new check fails");
  });
});

describe("the JUnit report", () => {
  const result = report([
    { ...finding("robots.exists", "pass"), duration_ms: 1250, requests: 1 },
    finding("llms.exists", "fail", 'llms.txt answers 200 "text/html" <html> & more \u0007'),
    finding("mcp.live", "error", "timed out"),
    finding("oauth.as", "n/a", "nothing uses OAuth"),
    finding("md.twin", "warn", "text/plain rather than text/markdown"),
  ]);
  const xml = toJunit(result);

  it("is well-formed XML even when a message quotes markup and control characters", () => {
    expect(XMLValidator.validate(xml)).toBe(true);
  });

  it("has one testcase per check: fail as failure, error as error, n/a as skipped, warn passing with its note", () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
    const suite = parsed.testsuites.testsuite;
    expect(suite).toMatchObject({ name: "https://example.com", tests: "5", failures: "1", errors: "1", skipped: "1" });
    const cases = suite.testcase as Array<Record<string, unknown>>;
    expect(cases.map((testcase) => testcase.name)).toEqual([
      "robots.exists: Check robots.exists",
      "llms.exists: Check llms.exists",
      "mcp.live: Check mcp.live",
      "oauth.as: Check oauth.as",
      "md.twin: Check md.twin",
    ]);
    // A control character a message quotes is spelled out, as in every other output (src/lib/site-text.ts).
    expect(cases[1]?.failure).toMatchObject({ message: 'llms.txt answers 200 "text/html" <html> & more \\u0007' });
    expect(cases[2]?.error).toMatchObject({ message: "timed out", type: "scanner" });
    expect(cases[3]?.skipped).toMatchObject({ message: "nothing uses OAuth" });
    expect(cases[4]?.["system-out"]).toBe("warn (medium): text/plain rather than text/markdown");
    expect(suite.properties.property).toContainEqual({ name: "score", value: "50" });
  });

  it("gives each testcase the time its check took, in seconds, and none when the report did not record it", () => {
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
    const cases = parsed.testsuites.testsuite.testcase as Array<Record<string, unknown>>;
    expect(cases[0]?.time).toBe("1.250");
    expect(cases[1]).not.toHaveProperty("time");
  });
});
