import { readFile } from "node:fs/promises";
import { z } from "zod";
import { CheckStatusSchema, type ReadinessResult } from "../../src/schemas/report.ts";

/**
 * A baseline is an earlier `npm run check -- <domain> --json`. Only what the comparison needs is read, and unknown
 * members are ignored, so a report from an older or newer suite version still serves as a baseline.
 */
const BaselineSchema = z.object({
  suite_version: z.string(),
  checked_at: z.string(),
  target: z.object({ origin: z.string() }),
  findings: z.array(z.object({ id: z.string(), status: CheckStatusSchema, message: z.string() })),
});
export type Baseline = z.infer<typeof BaselineSchema>;

export class BaselineError extends Error {
  override name = "BaselineError";
}

export async function readBaseline(path: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new BaselineError(
      `cannot read the baseline ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BaselineError(`the baseline ${path} is not JSON (write one with --json)`);
  }
  const parsed = BaselineSchema.safeParse(value);
  if (!parsed.success)
    throw new BaselineError(
      `the baseline ${path} is not a check report: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  return parsed.data;
}

type Status = z.infer<typeof CheckStatusSchema>;

/** Verdicts in order of merit; `n/a` and `error` are not verdicts, so they are never better or worse. */
const MERIT: Partial<Record<Status, number>> = { pass: 0, warn: 1, fail: 2 };

export interface Change {
  id: string;
  /** null when the baseline has no such check (a newer suite version). */
  before: Status | null;
  after: Status;
  message: string;
}

export interface Comparison {
  /** A verdict that got better: fail → warn, fail → pass, warn → pass. */
  fixed: Change[];
  /** A verdict that got worse: pass → warn, pass → fail, warn → fail. */
  regressed: Change[];
  /** A warn or fail where the baseline had no verdict (no such check, n/a, or error). */
  added: Change[];
  /** A verdict then, an error now: the scanner could not judge it this time, so it is not compared. */
  uncompared: Change[];
  /** Regressions plus new failures: what makes the comparison fail a build. */
  regressions: number;
}

export function compareWithBaseline(baseline: Baseline, current: ReadinessResult): Comparison {
  const before = new Map(baseline.findings.map((finding) => [finding.id, finding.status]));
  const comparison: Comparison = { fixed: [], regressed: [], added: [], uncompared: [], regressions: 0 };
  for (const finding of current.findings) {
    const earlier = before.get(finding.id) ?? null;
    const change: Change = { id: finding.id, before: earlier, after: finding.status, message: finding.message };
    const then = earlier === null ? undefined : MERIT[earlier];
    const now = MERIT[finding.status];
    if (then !== undefined && now !== undefined) {
      if (now < then) comparison.fixed.push(change);
      else if (now > then) comparison.regressed.push(change);
    } else if (then === undefined && now !== undefined && now > 0) comparison.added.push(change);
    else if (then !== undefined && (finding.status === "error" || finding.status === "blocked"))
      comparison.uncompared.push(change);
  }
  comparison.regressions =
    comparison.regressed.length + comparison.added.filter((change) => change.after === "fail").length;
  return comparison;
}

function line(change: Change, withMessage: boolean): string {
  const transition = `${change.before ?? "absent"} → ${change.after}`;
  return `    ${change.id}: ${transition}${withMessage ? ` — ${change.message}` : ""}`;
}

export function formatComparison(baseline: Baseline, current: ReadinessResult, comparison: Comparison): string[] {
  const lines = ["", `Compared with the baseline of ${baseline.checked_at} (suite ${baseline.suite_version}):`];
  if (baseline.target.origin !== current.target.origin)
    lines.push(`  note: the baseline checked ${baseline.target.origin}, this run ${current.target.origin}`);
  if (baseline.suite_version !== current.suite_version)
    lines.push(`  note: suite ${current.suite_version} now; checks it added appear as new`);
  const groups: Array<[string, Change[], boolean]> = [
    ["fixed", comparison.fixed, false],
    ["regressed", comparison.regressed, true],
    ["new", comparison.added, true],
    ["not compared (the scanner could not judge them this time)", comparison.uncompared, true],
  ];
  for (const [name, changes, withMessage] of groups) {
    if (changes.length === 0) continue;
    lines.push(`  ${name} (${changes.length}):`, ...changes.map((change) => line(change, withMessage)));
  }
  lines.push(
    comparison.regressions === 0
      ? "  no regressions"
      : `  ${comparison.regressions} regression(s): a check got worse or a new check fails`,
  );
  return lines;
}
