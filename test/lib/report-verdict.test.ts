import { describe, expect, it } from "vitest";
import { findingsToFix, reportVerdict } from "../../src/lib/report-verdict.ts";
import type { CheckStatus, Finding, ReadinessSummary, Severity } from "../../src/schemas/report.ts";

const finding = (id: string, status: CheckStatus, severity: Severity = "medium"): Finding => ({
  id,
  title: `Title of ${id}`,
  category: "discovery",
  severity,
  status,
  message: `${id} is ${status}`,
});

type Summary = Pick<ReadinessSummary, "score" | "incomplete" | "blocked" | "level" | "findings">;
const summary = (findings: Finding[], overrides: Partial<Summary> = {}): Summary => ({
  score: { percent: 100, pass: 1, fail: 0, warn: 0, na: 0, error: 0, blocked: 0 },
  incomplete: false,
  blocked: null,
  level: { value: 5, name: "Agent-Native", next: null },
  findings,
  ...overrides,
});

describe("the verdict a report page says first", () => {
  it("says every applicable check passes, and nothing about a level when every level is reached", () => {
    expect(reportVerdict(summary([finding("a", "pass"), finding("b", "n/a")]))).toEqual({
      headline: "Every check that applies to this site passes.",
      level: null,
    });
  });

  it("counts failures and warnings, and points to what to fix", () => {
    const verdict = reportVerdict(summary([finding("a", "fail"), finding("b", "fail"), finding("c", "warn")]));
    expect(verdict.headline).toBe("2 checks fail and 1 check warns: start with what to fix, below.");
  });

  it("says an incomplete report has no score, whatever its findings", () => {
    const verdict = reportVerdict(summary([finding("a", "error"), finding("b", "fail")], { incomplete: true }));
    expect(verdict.headline).toMatch(/^Incomplete: .*shows no score\.$/);
    expect(verdict.level).toBeNull();
  });

  it("says a report blocked by bot protection has no score, and how many checks were kept from a verdict", () => {
    const blocked = {
      checks: 7,
      signals: [{ kind: "challenge" as const, url: "https://a.example/", detail: "a challenge page" }],
      allow: "Allow us.",
    };
    const verdict = reportVerdict(
      summary([finding("a", "blocked"), finding("b", "fail")], { incomplete: true, blocked }),
    );
    expect(verdict.headline).toBe(
      "Blocked: the site's bot protection kept us from judging 7 checks, so this report shows no score.",
    );
  });

  it("tells a site at level 4 whose level-5 choices do not apply that 4 is as high as it goes", () => {
    const findings = [
      finding("mcp.card", "pass"),
      ...["policy.webbotauth", "a2a.card", "oauth.as", "oauth.prm"].map((id) => finding(id, "n/a")),
    ];
    const level = { value: 4, name: "Agent-Integrated", next: { value: 5, name: "Agent-Native", requirements: [] } };
    expect(reportVerdict(summary(findings, { level })).level).toBe(
      "Level 4 is the highest a site like this one can reach: level 5 asks for features it has no use for.",
    );
  });
});

describe("what a report page lists to fix", () => {
  it("lists failures before warnings, each by severity, and nothing that passed or does not apply", () => {
    const listed = findingsToFix([
      finding("warn-high", "warn", "high"),
      finding("pass", "pass"),
      finding("fail-low", "fail", "low"),
      finding("na", "n/a"),
      finding("fail-critical", "fail", "critical"),
      finding("error", "error"),
    ]);
    expect(listed.map((item) => item.id)).toEqual(["fail-critical", "fail-low", "warn-high"]);
  });
});
