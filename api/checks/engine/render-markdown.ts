import type { Finding, ReadinessResult } from "../../../src/schemas/report.ts";

/** A fence longer than any backtick run inside, so a prompt that contains ``` cannot break out of its block. */
function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marks = "`".repeat(longest + 1);
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
export function describeScore(result: Pick<ReadinessResult, "score" | "incomplete">): string {
  const { score } = result;
  if (result.incomplete)
    return `incomplete: ${score.error} checks could not reach a verdict, more than a quarter of those that apply`;
  return score.percent === null ? "not scored" : `${score.percent}/100`;
}

/**
 * The fix list for a coding agent (the `format=agent` idea from Cloudflare's scanner): the score and level, then one
 * section per failing or warning check with what was found, the clauses it rests on, how to fix it and a prompt.
 */
export function renderMarkdownReport(result: ReadinessResult): string {
  const { score, level } = result;
  const lines: string[] = [`# Agent-readiness fixes for ${result.target.origin}`, ""];
  lines.push(
    `- Score: **${describeScore(result)}** (${score.pass} pass, ${score.fail} fail, ${score.warn} warn, ${score.na} n/a, ${score.error} error)`,
  );
  if (result.incomplete) lines.push("- Report: **incomplete**; run the check again before acting on the score");
  lines.push(
    `- Level: **${level.value} — ${level.name}**${level.next === null ? "" : ` (next: ${level.next.value} — ${level.next.name})`}`,
  );
  const reasons = Object.entries(result.profile.reasons).map(([profile, reason]) => `${profile}: ${reason}`);
  lines.push(
    `- Profiles: ${result.profile.applied.join(", ") || "none"}${result.profile.overridden ? " (chosen)" : " (inferred)"}${reasons.length > 0 ? ` — ${reasons.join("; ")}` : ""}`,
  );
  lines.push(
    `- Checked ${result.checked_at} with suite ${result.suite_version}: ${result.requests} requests in ${result.duration_ms} ms`,
    "",
  );
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
    lines.push(finding.message, "");
    if (detail !== undefined) {
      for (const clause of detail.clauses) lines.push(`- ${clause.keyword} (${clause.source}): ${clause.problem}`);
      if (detail.clauses.length > 0) lines.push("");
      lines.push(`**Fix:** ${detail.remediation}`, "", "Prompt for a coding agent:", "", fence(detail.prompt), "");
      if (detail.spec_urls.length > 0) lines.push(`Specs: ${detail.spec_urls.join(", ")}`, "");
    }
  }
  const errors = result.findings.filter((finding) => finding.status === "error");
  if (errors.length > 0) {
    lines.push("## Not checked (scanner or network errors)", "");
    for (const finding of errors) lines.push(`- \`${finding.id}\`: ${finding.message}`);
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
