import { backtickFence, markdownCode, markdownInline } from "../../../src/lib/site-text.ts";
import type { Finding, ReadinessResult } from "../../../src/schemas/report.ts";

/** A fence longer than any backtick run inside, so a prompt that contains ``` cannot break out of its block. */
function fence(text: string): string {
  const marks = backtickFence(text, 3);
  return `${marks}text\n${text}\n${marks}`;
}

const ORDER = { fail: 0, warn: 1 } as const;

/** "120 ms, 2 requests, 3 reused", or "" for a report written before checks were timed. */
export function describeCost(finding: Finding): string {
  if (finding.duration_ms === undefined) return "";
  const requests = finding.requests ?? 0;
  const reused = finding.reused ?? 0;
  return `${finding.duration_ms} ms, ${requests} request${requests === 1 ? "" : "s"}${reused > 0 ? `, ${reused} reused` : ""}`;
}

/** The score line, which never shows a number for an incomplete report (DESIGN §8). */
export function describeScore(result: Pick<ReadinessResult, "score" | "incomplete" | "blocked">): string {
  const { score } = result;
  if (result.incomplete && result.blocked !== null)
    return `incomplete: the site's bot protection kept the scanner from judging ${result.blocked.checks} check${result.blocked.checks === 1 ? "" : "s"}`;
  if (result.incomplete)
    return `incomplete: ${score.error} checks could not reach a verdict, more than a quarter of those that apply`;
  return score.percent === null ? "not scored" : `${score.percent}/100`;
}

/** "3 pass, 1 fail, …", with `blocked` only where a check was. */
export function describeTally(score: ReadinessResult["score"]): string {
  const blocked = score.blocked > 0 ? `, ${score.blocked} blocked` : "";
  return `${score.pass} pass, ${score.fail} fail, ${score.warn} warn, ${score.na} n/a, ${score.error} error${blocked}`;
}

/** What the report says about the site's bot protection: how many checks it kept from a verdict, and what to allow. */
export function describeBlocking(result: Pick<ReadinessResult, "blocked">): string[] {
  const { blocked } = result;
  if (blocked === null) return [];
  return [
    `Blocked: the site's bot protection kept the scanner from judging ${blocked.checks} check${blocked.checks === 1 ? "" : "s"}; none of them means a surface is missing.`,
    ...blocked.signals.map((signal) => `- ${signal.kind} at ${signal.url}: ${signal.detail}`),
    `What to allow: ${blocked.allow}`,
  ];
}

/**
 * `describeBlocking` as Markdown: the URLs in code spans and the site's answers escaped (a blocking signal quotes what
 * the site sent), so nothing in them renders as a link or HTML.
 */
export function describeBlockingMarkdown(result: Pick<ReadinessResult, "blocked">): string[] {
  const { blocked } = result;
  if (blocked === null) return [];
  const [head = ""] = describeBlocking(result);
  return [
    head,
    ...blocked.signals.map(
      (signal) => `- ${signal.kind} at ${markdownCode(signal.url)}: ${markdownInline(signal.detail)}`,
    ),
    `What to allow: ${markdownInline(blocked.allow)}`,
  ];
}

/**
 * The fix list for a coding agent (the `format=agent` idea from Cloudflare's scanner): the score and level, then one
 * section per failing or warning check with what was found, the clauses it rests on, how to fix it and a prompt.
 */
export function renderMarkdownReport(result: ReadinessResult): string {
  const { score, level } = result;
  const lines: string[] = [`# Agent-readiness fixes for ${result.target.origin}`, ""];
  lines.push(`- Score: **${describeScore(result)}** (${describeTally(score)})`);
  if (result.incomplete) lines.push("- Report: **incomplete**; run the check again before acting on the score");
  lines.push(
    `- Level: **${level.value} — ${level.name}**${level.next === null ? "" : ` (next: ${level.next.value} — ${level.next.name})`}`,
  );
  const reasons = Object.entries(result.profile.reasons).map(
    ([profile, reason]) => `${profile}: ${markdownInline(reason)}`,
  );
  lines.push(
    `- Profiles: ${result.profile.applied.join(", ") || "none"}${result.profile.overridden ? " (chosen)" : " (inferred)"}${reasons.length > 0 ? ` — ${reasons.join("; ")}` : ""}`,
  );
  lines.push(
    `- Checked ${result.checked_at} with suite ${result.suite_version}: ${result.requests} requests in ${result.duration_ms} ms`,
  );
  if (result.render !== null) lines.push(`- Rendered: ${markdownInline(result.render.note)}`);
  lines.push("");
  const blocking = describeBlockingMarkdown(result);
  if (blocking.length > 0) lines.push("## Blocked by the site's bot protection", "", ...blocking, "");
  const details = new Map(result.details.map((detail) => [detail.id, detail]));
  const todo = result.findings
    .filter(
      (finding): finding is typeof finding & { status: keyof typeof ORDER } =>
        finding.status === "fail" || finding.status === "warn",
    )
    .sort((left, right) => ORDER[left.status] - ORDER[right.status]);
  if (todo.length === 0) lines.push("Nothing to fix: every applicable check passes.", "");
  for (const finding of todo) {
    const detail = details.get(finding.id);
    lines.push(`## ${finding.status.toUpperCase()}: ${finding.title} (\`${finding.id}\`, ${finding.severity})`, "");
    lines.push(markdownInline(finding.message), "");
    if (detail !== undefined) {
      for (const clause of detail.clauses)
        lines.push(`- ${clause.keyword} (${clause.source}): ${markdownInline(clause.problem)}`);
      if (detail.clauses.length > 0) lines.push("");
      lines.push(`**Fix:** ${detail.remediation}`, "", "Prompt for a coding agent:", "", fence(detail.prompt), "");
      if (detail.spec_urls.length > 0) lines.push(`Specs: ${detail.spec_urls.join(", ")}`, "");
    }
  }
  const errors = result.findings.filter((finding) => finding.status === "error" || finding.status === "blocked");
  if (errors.length > 0) {
    lines.push("## Not checked (blocked, scanner or network errors)", "");
    for (const finding of errors) lines.push(`- \`${finding.id}\`: ${markdownInline(finding.message)}`);
    lines.push("");
  }
  const timed = result.findings.filter((finding) => finding.duration_ms !== undefined);
  if (timed.length > 0) {
    lines.push("## Every check", "", "| Check | Status | Cost |", "|---|---|---|");
    for (const finding of timed) lines.push(`| \`${finding.id}\` | ${finding.status} | ${describeCost(finding)} |`);
    lines.push("");
  }
  return lines.join("\n");
}
