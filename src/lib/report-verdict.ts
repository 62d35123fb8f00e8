import type { Finding, ReadinessSummary, Severity } from "../schemas/report.ts";
import { explainLevel } from "./readiness-levels.ts";

/** What a report page says first, in words, beside the score: the verdict and where the level stands. */
export interface ReportVerdict {
  headline: string;
  /** Where the level stands against the next one; null when the dial's "Level N of 5" says it all. */
  level: string | null;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * One sentence for the score and one for the level. A site that passes every check that applies and
 * cannot reach the next level (its choices do not apply: DESIGN §8 "a content site fails nothing it
 * does not need") is told so here, rather than by a "why not level 5" beside its score of 100.
 */
export function reportVerdict(
  report: Pick<ReadinessSummary, "score" | "incomplete" | "blocked" | "level" | "findings">,
): ReportVerdict {
  const { score, level } = report;
  const toFix = findingsToFix(report.findings);
  const failing = toFix.filter((finding) => finding.status === "fail").length;
  const warning = toFix.length - failing;
  const counts = [
    failing > 0 ? plural(failing, "check fails", "checks fail") : "",
    warning > 0 ? plural(warning, "check warns", "checks warn") : "",
  ].filter(Boolean);
  const headline = report.blocked
    ? `Blocked: the site's bot protection kept us from judging ${plural(report.blocked.checks, "check", "checks")}, so this report shows no score.`
    : report.incomplete
      ? "Incomplete: too many checks could not reach a verdict, so this report shows no score."
      : counts.length > 0
        ? `${counts.join(" and ")}: start with what to fix, below.`
        : score.percent === null
          ? "Nothing on this site could be scored."
          : "Every check that applies to this site passes.";
  const explained = explainLevel(level, report.findings);
  if (!explained.next || report.incomplete) return { headline, level: null };
  return {
    headline,
    level: explained.outOfReach
      ? `Level ${level.value} is the highest a site like this one can reach: level ${explained.next.value} asks for features it has no use for.`
      : `Level ${explained.next.value} (${explained.next.name}) is within reach: see what it needs, below.`,
  };
}

const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

/** What the site should fix, most important first: failures before warnings, then by severity. */
export function findingsToFix(findings: readonly Finding[]): Finding[] {
  const rank = (finding: Finding) => (finding.status === "fail" ? 0 : 1) * 10 + SEVERITY_ORDER[finding.severity];
  return findings
    .filter((finding) => finding.status === "fail" || finding.status === "warn")
    .sort((a, b) => rank(a) - rank(b));
}
