import type { ReadinessResult } from "../../../src/schemas/report.ts";

/** A fence longer than any backtick run inside, so a prompt that contains ``` cannot break out of its block. */
function fence(text: string): string {
  const longest = Math.max(2, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  const marks = "`".repeat(longest + 1);
  return `${marks}text\n${text}\n${marks}`;
}

const ORDER = { fail: 0, warn: 1 } as const;

/**
 * The fix list for a coding agent (the `format=agent` idea from Cloudflare's scanner): the score and level, then one
 * section per failing or warning check with what was found, how to fix it and a prompt to paste.
 */
export function renderMarkdownReport(result: ReadinessResult): string {
  const { score, level } = result;
  const lines: string[] = [`# Agent-readiness fixes for ${result.target.origin}`, ""];
  const percent = score.percent === null ? "not scored" : `${score.percent}/100`;
  lines.push(
    `- Score: **${percent}** (${score.pass} pass, ${score.fail} fail, ${score.warn} warn, ${score.na} n/a, ${score.error} error)`,
  );
  lines.push(
    `- Level: **${level.value} — ${level.name}**${level.next === null ? "" : ` (next: ${level.next.value} — ${level.next.name})`}`,
  );
  lines.push(
    `- Profiles: ${result.profile.applied.join(", ") || "none"}${result.profile.overridden ? " (chosen)" : " (inferred)"}`,
  );
  lines.push(`- Checked ${result.checked_at} with suite ${result.suite_version}`, "");
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
  return lines.join("\n");
}
