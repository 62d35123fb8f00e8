import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { type BadgeFacts, renderBadge } from "../../../api/monitors/badge.ts";
import {
  derivePublicId,
  issuedPublicId,
  publicIdHash,
  signMonitorLink,
  verifyMonitorLink,
} from "../../../api/monitors/keys.ts";
import { type Comparable, regressionOf } from "../../../api/monitors/regressions.ts";
import { resultOf } from "../../../api/monitors/scheduler.ts";
import { signDownloadToken, verifyDownloadToken } from "../../../api/store/download-links.ts";
import { redactPath } from "../../../src/lib/redacted-paths.ts";
import { renderScoreChart } from "../../../src/lib/score-chart.ts";
import type { CheckStatus } from "../../../src/schemas/report.ts";

const checked = (score: number | null, statuses: Record<string, CheckStatus>, suite = "2026.11.2"): Comparable => ({
  outcome: "checked",
  reason: null,
  score,
  suite_version: suite,
  checks: Object.fromEntries(
    Object.entries(statuses).map(([id, status]) => [id, { status, message: `${id} is ${status}` }]),
  ),
});
const failed: Comparable = {
  outcome: "failed",
  reason: "the homepage did not answer",
  score: null,
  suite_version: null,
  checks: {},
};

describe("a regression", () => {
  it("is a score that drops or a check that leaves pass for warn or fail, against the last checked run", () => {
    const before = checked(90, { a: "pass", b: "pass", c: "fail" });
    expect(regressionOf(checked(90, { a: "pass", b: "pass", c: "fail" }), [before])).toBeNull();
    expect(regressionOf(checked(95, { a: "pass", b: "warn", c: "pass" }), [before])).toEqual({
      kind: "regressed",
      score: null,
      checks: [{ id: "b", before: "pass", after: "warn", message: "b is warn" }],
      suite: null,
    });
    expect(regressionOf(checked(80, { a: "pass", b: "pass", c: "fail" }), [before])).toMatchObject({
      score: { before: 90, after: 80 },
      checks: [],
    });
    // n/a, error and blocked are not regressions (blocked is not missing), nor is a check the earlier suite lacked.
    expect(regressionOf(checked(90, { a: "n/a", b: "error", c: "fail", d: "fail" }), [before])).toBeNull();
    expect(regressionOf(checked(90, { a: "blocked", b: "pass", c: "fail" }), [before])).toBeNull();
  });

  it("is announced once per change: the first run, a run like the last, and a spell of failures announce nothing more", () => {
    expect(regressionOf(checked(10, { a: "fail" }), [])).toBeNull();
    expect(regressionOf(failed, [checked(90, { a: "pass" })])).toEqual({
      kind: "unreachable",
      reason: "the homepage did not answer",
    });
    expect(regressionOf(failed, [failed, checked(90, { a: "pass" })])).toBeNull();
    // Back after failing: judged against the last run that was checked, not against the failure.
    expect(regressionOf(checked(90, { a: "pass" }), [failed, checked(90, { a: "pass" })])).toBeNull();
    expect(regressionOf(checked(50, { a: "fail" }), [failed, checked(90, { a: "pass" })])).toMatchObject({
      kind: "regressed",
    });
  });

  it("names the suite change when the two runs were judged by different suites", () => {
    expect(regressionOf(checked(70, { a: "fail" }, "2026.11.3"), [checked(90, { a: "pass" })])).toMatchObject({
      suite: { before: "2026.11.2", after: "2026.11.3" },
    });
  });
});

describe("a run's outcome", () => {
  const report = (status: CheckStatus, message: string) => ({
    id: "00000000-0000-4000-8000-000000000000",
    score: { percent: 40, pass: 2, fail: 3, warn: 0, na: 0, error: 0, blocked: 0 },
    level: { value: 1, name: "Basic", next: null },
    incomplete: false,
    suite_version: "2026.11.3",
    findings: [
      {
        id: "http.home-200",
        title: "Home",
        category: "reachability" as const,
        severity: "critical" as const,
        status,
        message,
      },
    ],
  });

  it("is failed, saying why, when the homepage did not answer or was blocked; checked otherwise", () => {
    expect(resultOf(report("fail", "could not connect"))).toMatchObject({
      outcome: "failed",
      reason: "the homepage did not answer: could not connect",
      score: null,
    });
    expect(resultOf(report("blocked", "a challenge page"))).toMatchObject({
      outcome: "failed",
      reason: "the homepage was blocked: a challenge page",
    });
    expect(resultOf(report("pass", "/ answers 200 HTML"))).toMatchObject({ outcome: "checked", score: 40, level: 1 });
  });
});

describe("monitor ids and links", () => {
  const ring = { current: "a-server-secret-of-at-least-32-characters", previous: [] };
  const monitor = "0b9c7c1e-2f0a-4c59-9d1f-3a2b1c0d9e8f";

  it("derives the public id again from the stored hash, also after a rotation, never from storage", () => {
    const id = derivePublicId(ring.current, monitor);
    expect(id).toMatch(/^mon_[A-Za-z0-9_-]{43}$/);
    const rotated = { current: "another-secret-of-at-least-32-characters", previous: [ring.current] };
    expect(issuedPublicId(rotated, monitor, publicIdHash(id))).toBe(id);
    expect(issuedPublicId({ current: rotated.current, previous: [] }, monitor, publicIdHash(id))).toBeNull();
  });

  it("signs confirm and unsubscribe links apart: one never verifies as the other", () => {
    const at = new Date("2026-11-26T09:00:00.000Z");
    const token = signMonitorLink(ring.current, "confirm", monitor, new Date(at.getTime() + 60_000));
    expect(verifyMonitorLink(ring, "confirm", token, at)).toMatchObject({ ok: true, subject: monitor });
    expect(verifyMonitorLink(ring, "unsubscribe", token, at)).toEqual({ ok: false, reason: "signature" });
    expect(verifyMonitorLink(ring, "confirm", token, new Date(at.getTime() + 60_000))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("have exactly one valid spelling: a leading zero on the expiry is malformed, for monitor and download links alike", () => {
    const at = new Date("2026-11-26T09:00:00.000Z");
    const expires = new Date(at.getTime() + 60_000);
    const pad = (token: string) => token.replace(/^(v1\.[^.]+)\.(\d+)\./, "$1.0$2.");
    const token = signMonitorLink(ring.current, "unsubscribe", monitor, expires);
    expect(verifyMonitorLink(ring, "unsubscribe", token, at)).toMatchObject({ ok: true });
    expect(pad(token)).not.toBe(token);
    expect(verifyMonitorLink(ring, "unsubscribe", pad(token), at)).toEqual({ ok: false, reason: "malformed" });
    const download = signDownloadToken(ring.current, "ent_abc123", expires);
    expect(verifyDownloadToken(ring, download, at)).toMatchObject({ ok: true });
    expect(verifyDownloadToken(ring, pad(download), at)).toEqual({ ok: false, reason: "malformed" });
  });

  it("keeps monitor ids and link tokens out of the access log, and the endpoints' names in it", () => {
    expect(redactPath("/api/v1/monitors/mon_abc?before=2")).toBe("/api/v1/monitors/[redacted]");
    expect(redactPath("/api/v1/agents/monitors/mon_abc")).toBe("/api/v1/agents/monitors/[redacted]");
    expect(redactPath("/monitors/mon_abc")).toBe("/monitors/[redacted]");
    expect(redactPath("/monitors/unsubscribe/v1.x.1.y")).toBe("/monitors/unsubscribe/[redacted]");
    expect(redactPath("/api/v1/monitors/confirm")).toBe("/api/v1/monitors/confirm");
    expect(redactPath("/api/v1/agents/monitors")).toBe("/api/v1/agents/monitors");
  });
});

/** WCAG 2.2 relative luminance and contrast ratio of two `#rrggbb` colours. */
function contrast(first: string, second: string): number {
  const luminance = (hex: string) => {
    const [r = 0, g = 0, b = 0] = [1, 3, 5].map((index) => {
      const channel = Number.parseInt(hex.slice(index, index + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

describe("the badge", () => {
  const facts: BadgeFacts[] = [
    { kind: "scored", score: 96, level: 4, levelName: "Agent-Ready" },
    { kind: "scored", score: 60, level: 2, levelName: "Discoverable" },
    { kind: "scored", score: 20, level: 0, levelName: "Not Ready" },
    { kind: "scored", score: null, level: 1, levelName: "Basic" },
    { kind: "failed" },
    { kind: "pending" },
    { kind: "unknown" },
  ];

  it.each(facts)("is well-formed SVG with an accessible name and white text readable on every fill (%o)", (fact) => {
    const svg = renderBadge("docs.example.com", fact);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(svg) as {
      svg: { "@_role": string; "@_width": string; title: string; g: { rect?: { "@_fill": string }[] }[] };
    };
    expect(parsed.svg["@_role"]).toBe("img");
    expect(parsed.svg.title).toMatch(/^Agent readiness of docs\.example\.com: /);
    const fills = (parsed.svg.g[0]?.rect ?? []).map((rect) => rect["@_fill"]).filter((fill) => fill.startsWith("#"));
    expect(fills).toHaveLength(2);
    for (const fill of fills) expect(contrast(fill, "#ffffff"), fill).toBeGreaterThanOrEqual(4.5);
    expect(Number(parsed.svg["@_width"])).toBeGreaterThan(100);
  });

  it("escapes what it is given", () => {
    expect(renderBadge('<x>&"', { kind: "unknown" })).toContain("Agent readiness of &#60;x&#62;&#38;&#34;");
  });
});

describe("the score chart", () => {
  it("draws scored runs as a line, breaks it at a run without a score, and describes itself", () => {
    const svg = renderScoreChart(
      [
        { at: "2026-11-01T09:00:00.000Z", score: 80 },
        { at: "2026-11-02T09:00:00.000Z", score: 90 },
        { at: "2026-11-03T09:00:00.000Z", score: null },
        { at: "2026-11-04T09:00:00.000Z", score: 70 },
        { at: "2026-11-05T09:00:00.000Z", score: 75 },
      ],
      "example.com",
    );
    expect(new XMLParser().parse(svg)).toBeTruthy();
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg).toContain('<title id="chart-title">Readiness score of example.com over time</title>');
    expect(svg).toContain("5 runs from 2026-11-01 to 2026-11-05; scores from 70 to 90, latest 75.");
  });
});
