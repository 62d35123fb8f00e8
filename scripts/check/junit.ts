import { inertLine } from "../../src/lib/site-text.ts";
import type { Finding, ReadinessResult } from "../../src/schemas/report.ts";

// XML 1.0 §2.2 allows only these characters; a message quoting a site's bytes may hold others.
const NOT_XML_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Inert first (src/lib/site-text.ts: a message quotes what the site wrote), then XML: a CI viewer shows it as text. */
function escapeXml(text: string): string {
  return inertLine(text)
    .replace(NOT_XML_CHARACTER, "\uFFFD")
    .replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

const attributes = (values: Readonly<Record<string, string | number>>): string =>
  Object.entries(values)
    .map(([name, value]) => ` ${name}="${escapeXml(String(value))}"`)
    .join("");

/**
 * One testcase per check: fail is a failure, error an error (and blocked, typed "blocked": the site's bot protection
 * kept it from a verdict), n/a skipped; a warning passes with its message. Its time
 * is the check's own duration (a report from before suite 2026.11.2 has none, and the attribute is left out).
 */
function testcase(finding: Finding, origin: string): string {
  const time: Record<string, string> =
    finding.duration_ms === undefined ? {} : { time: (finding.duration_ms / 1000).toFixed(3) };
  const head = `    <testcase${attributes({ classname: `${origin}.${finding.category}`, name: `${finding.id}: ${finding.title}`, ...time })}`;
  const detail = escapeXml(`${finding.severity}: ${finding.message}`);
  switch (finding.status) {
    case "fail":
      return `${head}>\n      <failure${attributes({ message: finding.message, type: finding.severity })}>${detail}</failure>\n    </testcase>`;
    case "error":
      return `${head}>\n      <error${attributes({ message: finding.message, type: "scanner" })}>${detail}</error>\n    </testcase>`;
    case "blocked":
      return `${head}>\n      <error${attributes({ message: finding.message, type: "blocked" })}>${detail}</error>\n    </testcase>`;
    case "n/a":
      return `${head}>\n      <skipped${attributes({ message: finding.message })}/>\n    </testcase>`;
    case "warn":
      return `${head}>\n      <system-out>${escapeXml(`warn (${finding.severity}): ${finding.message}`)}</system-out>\n    </testcase>`;
    case "pass":
      return `${head}/>`;
  }
}

/** The report as JUnit XML (the format Jenkins, GitLab and GitHub test reporters read). */
export function toJunit(result: ReadinessResult): string {
  const count = (status: Finding["status"]): number =>
    result.findings.filter((finding) => finding.status === status).length;
  const totals = {
    tests: result.findings.length,
    failures: count("fail"),
    errors: count("error") + count("blocked"),
    skipped: count("n/a"),
    time: (result.duration_ms / 1000).toFixed(3),
  };
  const properties = [
    ["suite_version", result.suite_version],
    ["score", result.score.percent === null ? "not scored" : String(result.score.percent)],
    ["level", `${result.level.value} ${result.level.name}`],
    ["requests", String(result.requests)],
    ...(result.blocked === null ? [] : [["blocked", `${result.blocked.checks} checks: ${result.blocked.allow}`]]),
  ]
    .map(([name, value]) => `      <property${attributes({ name: name ?? "", value: value ?? "" })}/>`)
    .join("\n");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes({ name: "agent-readiness", ...totals })}>`,
    `  <testsuite${attributes({ name: result.target.origin, ...totals, timestamp: result.checked_at })}>`,
    `    <properties>\n${properties}\n    </properties>`,
    ...result.findings.map((finding) => testcase(finding, result.target.origin)),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
