import type { CheckStatus } from "../../src/schemas/report.ts";
import type { RunCheck, RunRow } from "./sql/runs.ts";

/** What a run is compared with: its outcome, score, suite and checks. */
export type Comparable = Pick<RunRow, "outcome" | "reason" | "score" | "suite_version" | "checks">;

/** One check whose status differs between two runs; `before` is `null` for a check the earlier suite did not have. */
export interface CheckChange {
  id: string;
  before: CheckStatus | null;
  after: CheckStatus | null;
  /** The later run's message for the check (the earlier one's if the later run lacks it). */
  message: string;
}

/** Why a run deserves an alert, against the run it is judged by. */
export type Regression =
  | { kind: "unreachable"; reason: string }
  | {
      kind: "regressed";
      score: { before: number; after: number } | null;
      checks: CheckChange[];
      /** Set when the two runs were judged by different suite versions: a stricter suite is not a broken site. */
      suite: { before: string | null; after: string | null } | null;
    };

const WORSE: ReadonlySet<CheckStatus> = new Set(["warn", "fail"]);

/** Every check whose status differs between `earlier` and `later`, in check-id order. */
export function changedChecks(earlier: Record<string, RunCheck>, later: Record<string, RunCheck>): CheckChange[] {
  const ids = [...new Set([...Object.keys(earlier), ...Object.keys(later)])].sort();
  return ids.flatMap((id) => {
    const before = earlier[id]?.status ?? null;
    const after = later[id]?.status ?? null;
    if (before === after) return [];
    return [{ id, before, after, message: later[id]?.message ?? earlier[id]?.message ?? "" }];
  });
}

/**
 * Whether `run` regressed, judged against the runs before it (newest first). One alert per change,
 * not per run: a site that stays down, or stays worse, alerts once. A failed run alerts only when the
 * run before it was checked; a checked run is compared with the last checked run (a spell of failures
 * in between changes nothing), and regresses when its score drops or a check goes from pass to warn or
 * fail. The first run has nothing to regress from.
 */
export function regressionOf(run: Comparable, previous: readonly Comparable[]): Regression | null {
  const last = previous[0];
  if (!last) return null;
  if (run.outcome === "failed")
    return last.outcome === "checked"
      ? { kind: "unreachable", reason: run.reason ?? "the site could not be checked" }
      : null;
  const baseline = previous.find((candidate) => candidate.outcome === "checked");
  if (!baseline) return null;
  const checks = changedChecks(baseline.checks, run.checks).filter(
    (change) => change.before === "pass" && change.after !== null && WORSE.has(change.after),
  );
  const score =
    baseline.score !== null && run.score !== null && run.score < baseline.score
      ? { before: baseline.score, after: run.score }
      : null;
  if (!score && checks.length === 0) return null;
  const suite =
    baseline.suite_version === run.suite_version ? null : { before: baseline.suite_version, after: run.suite_version };
  return { kind: "regressed", score, checks, suite };
}
