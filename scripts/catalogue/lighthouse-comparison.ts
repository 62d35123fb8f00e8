import type { CheckDefinition } from "../../api/checks/engine/check-types.ts";
import { checksFor, LIGHTHOUSE_AGENTIC_AUDITS } from "../../api/checks/engine/suite/counterparts.ts";
import type { CheckStatus } from "../../src/schemas/report.ts";

/** One audit of Lighthouse's agentic-browsing category as a run scored it (kept in a corpus site's lighthouse.json). */
export interface LighthouseAudit {
  id: string;
  score: number | null;
  scoreDisplayMode: string;
  /** Rows it lists (tools, forms, failing rules); null when it lists nothing. */
  items: number | null;
}

/** A rendered corpus site: our verdicts, Lighthouse's audits of its homepage, and why each disagreement is one. */
export interface SideBySideSite {
  name: string;
  verdicts: Readonly<Record<string, CheckStatus | undefined>>;
  lighthouse: { version: string; audits: readonly LighthouseAudit[] };
  /** By audit id: one sentence on why our verdict and Lighthouse's differ. */
  explanations: Readonly<Record<string, string>>;
}

export interface ComparisonRow {
  audit: string;
  /** Lighthouse's outcome as the table shows it: pass, fail, n/a, or what an informative audit lists. */
  lighthouse: string;
  check: string;
  ours: CheckStatus | "none";
  agrees: boolean;
  why: string | null;
}

type Outcome = "pass" | "fail" | "n/a" | "listed" | "nothing listed" | "no score";

/** Lighthouse's passing line: a score of 0.9 is where its report turns green (and CLS 0.1 scores 0.9). */
const PASSING_SCORE = 0.9;

function outcomeOf(audit: LighthouseAudit): Outcome {
  if (audit.scoreDisplayMode === "notApplicable") return "n/a";
  if (audit.scoreDisplayMode === "informative") return (audit.items ?? 0) > 0 ? "listed" : "nothing listed";
  if (audit.score === null) return "no score";
  return audit.score >= PASSING_SCORE ? "pass" : "fail";
}

function shown(audit: LighthouseAudit, outcome: Outcome): string {
  if (outcome === "listed") return `lists ${audit.items ?? 0}`;
  if ((outcome === "pass" || outcome === "fail") && audit.scoreDisplayMode === "numeric")
    return `${outcome} (${audit.score})`;
  return outcome;
}

/**
 * Whether the two say the same about the page. Scored audits: Lighthouse's pass is our pass, its fail our warn or
 * fail, its n/a our n/a. The informative ones: webmcp-registered-tools listing tools is our pass, listing none our
 * n/a; webmcp-form-coverage only lists unannotated forms, as our render.webmcp does in its message without lowering
 * its verdict, so any verdict of ours that is not a problem agrees with it.
 */
function agrees(audit: string, outcome: Outcome, ours: CheckStatus | "none"): boolean {
  switch (outcome) {
    case "pass":
      return ours === "pass";
    case "fail":
      return ours === "warn" || ours === "fail";
    case "n/a":
      return ours === "n/a";
    case "listed":
    case "nothing listed":
      if (audit === "webmcp-registered-tools") return ours === (outcome === "listed" ? "pass" : "n/a");
      return ours === "pass" || ours === "n/a";
    case "no score":
      return false;
  }
}

/** The check of ours that stands for a Lighthouse audit: the rendered one where there is one (counterparts.ts). */
export function counterpartOf(audit: string, suite: readonly CheckDefinition[]): string | null {
  const ids = checksFor("lighthouse", audit);
  const rendered = ids.find((id) => suite.some((check) => check.id === id && check.rendered === true));
  return rendered ?? ids[0] ?? null;
}

export function compareSite(site: SideBySideSite, suite: readonly CheckDefinition[]): ComparisonRow[] {
  return LIGHTHOUSE_AGENTIC_AUDITS.flatMap((id) => {
    const check = counterpartOf(id, suite);
    if (check === null) return [];
    const audit = site.lighthouse.audits.find((candidate) => candidate.id === id);
    // An audit the run did not report (another Lighthouse version) has nothing to compare.
    if (audit === undefined) return [];
    const outcome = outcomeOf(audit);
    const ours = site.verdicts[check] ?? "none";
    const agreed = agrees(id, outcome, ours);
    return [
      { audit: id, lighthouse: shown(audit, outcome), check, ours, agrees: agreed, why: site.explanations[id] ?? null },
    ];
  });
}

/** What keeps the comparison honest: a disagreement without its sentence, or a sentence for audits that agree. */
export function comparisonProblems(site: SideBySideSite, rows: readonly ComparisonRow[]): string[] {
  const problems = rows
    .filter((row) => !row.agrees && row.why === null)
    .map(
      (row) =>
        `${site.name} ${row.audit}: Lighthouse ${row.lighthouse}, ${row.check} ${row.ours}: explain it in expected.json "lighthouse"`,
    );
  for (const [audit] of Object.entries(site.explanations))
    if (!rows.some((row) => row.audit === audit && !row.agrees))
      problems.push(`${site.name} ${audit}: explained, but the two now agree (or no such audit): remove the sentence`);
  return problems;
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

/** The catalogue's section: per rendered corpus site, Lighthouse's agentic audits beside our verdicts. */
export function sideBySideSection(sites: readonly SideBySideSite[], suite: readonly CheckDefinition[]): string[] {
  if (sites.length === 0) return [];
  const version = sites[0]?.lighthouse.version ?? "";
  const lines = [
    "## Rendered checks beside Lighthouse",
    "",
    `Each corpus site checked with rendering, beside Lighthouse ${version}'s Agentic Browsing audits of its homepage`,
    "(run by `npm run catalogue` in Debian's Chromium, WebMCP on, against the same fixture on loopback). Where the",
    "two differ, the last column says why.",
    "",
  ];
  for (const site of sites) {
    lines.push(
      `### \`${site.name}\``,
      "",
      "| Lighthouse audit | Lighthouse | Our check | Ours | |",
      "|---|---|---|---|---|",
    );
    for (const row of compareSite(site, suite)) {
      const verdict = row.agrees ? "same" : `differs: ${cell(row.why ?? "not explained")}`;
      lines.push(`| \`${row.audit}\` | ${row.lighthouse} | \`${row.check}\` | ${row.ours} | ${verdict} |`);
    }
    lines.push("");
  }
  return lines;
}
