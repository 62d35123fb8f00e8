import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { CheckReport } from "../../src/schemas/responses/checks.ts";
import { isUnavailableError } from "../db/database.ts";
import type { Sql, SqlStatement } from "../db/sql.ts";
import { queueMailStatement } from "../mail/outbox-sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { Logger } from "../platform/log.ts";
import { ApiProblem } from "../platform/problem.ts";
import { MONITOR_ALERT_MAIL, mailStopped } from "./mail/rules.ts";
import { regressionOf } from "./regressions.ts";
import { type MonitorRow, sweepUnconfirmed } from "./sql/monitors.ts";
import {
  type Claim,
  claimDueMonitors,
  hasDueMonitors,
  type NewRun,
  previousRuns,
  type RunCheck,
  recordRun,
  runRecorded,
} from "./sql/runs.ts";

/** What a run needs of a readiness check: the stored report's id and its summary. */
export type CheckedSite = Pick<CheckReport, "id" | "score" | "level" | "incomplete" | "suite_version" | "findings">;

export interface SchedulerDeps {
  db: () => Sql;
  /** The clock: tests advance it instead of sleeping. */
  now: () => Date;
  /** Runs and stores a check of the monitor's origin; throws the `target-not-allowed` problem for a refused target. */
  check: (monitor: MonitorRow) => Promise<CheckedSite>;
  /** Whether monitors may run now (the `checks` switch). */
  isOpen: () => Promise<boolean>;
  /** Checks this instance runs at once. */
  concurrency: number;
  /** How long a claim holds: longer than a check can take (its whole-scan budget), so only a dead instance loses one. */
  leaseMs: number;
  /** Seals each run's report id: it opens the full report, so it is not stored as it is. */
  keys: Pick<LookupKeys, "seal">;
  log: Logger;
  /** Names this instance in the leases it takes and the runs it records. */
  instance?: string;
}

export interface SchedulerReport {
  /** Runs recorded by this call. */
  recorded: number;
  /** Runs whose result came too late: the lease had passed to another instance, which ran them. */
  superseded: number;
  alerts: number;
}

const INTERVAL_MS = { daily: 86_400_000, weekly: 7 * 86_400_000 } as const;
/** The check whose failure means the site could not be judged at all: its homepage did not answer. */
const HOME_CHECK = "http.home-200";
const UNCONFIRMED_MS = 7 * 86_400_000;
const SWEEP_EVERY_MS = 3_600_000;

/** A run's result from its check: `failed` when the homepage did not answer (the rest then says nothing). */
export function resultOf(
  report: CheckedSite,
): Pick<NewRun, "outcome" | "reason" | "score" | "level" | "level_name" | "checks"> {
  const home = report.findings.find((finding) => finding.id === HOME_CHECK);
  if (home && home.status !== "pass" && home.status !== "warn")
    return {
      outcome: "failed",
      // Blocked is not missing (DESIGN §8): the site's bot protection kept the scanner out, and the reason says so.
      reason: `${home.status === "blocked" ? "the homepage was blocked" : "the homepage did not answer"}: ${home.message}`,
      score: null,
      level: null,
      level_name: null,
      checks: {},
    };
  const checks: Record<string, RunCheck> = {};
  for (const finding of report.findings) checks[finding.id] = { status: finding.status, message: finding.message };
  return {
    outcome: "checked",
    reason: null,
    score: report.score.percent,
    level: report.level.value,
    level_name: report.level.name,
    checks,
  };
}

/**
 * Runs what is due, on any number of instances at once. Each instance claims due monitors with one
 * `UPDATE … RETURNING` that sets a lease (sql/runs.ts), runs at most `concurrency` checks at a time,
 * and records each run with the claim it holds, so a due time is run and recorded once; a crashed
 * instance's lease runs out and the next claim runs it again. Nothing lives in memory that another
 * instance needs.
 */
export class MonitorScheduler {
  readonly instance: string;
  #lastSweep = Number.NEGATIVE_INFINITY;
  #stopping = false;

  private readonly deps: SchedulerDeps;

  constructor(deps: SchedulerDeps) {
    this.deps = deps;
    this.instance = deps.instance ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  }

  /** Claims no more work; runs in progress finish (a graceful shutdown waits for them). */
  stop(): void {
    this.#stopping = true;
  }

  /** Runs everything due now, `concurrency` at a time, until nothing is left to claim. */
  async runDue(): Promise<SchedulerReport> {
    const report: SchedulerReport = { recorded: 0, superseded: 0, alerts: 0 };
    await this.#sweep();
    if (!(await this.deps.isOpen())) return report;
    const running = new Set<Promise<void>>();
    try {
      await this.#runPool(running, report);
    } finally {
      // A claim that failed (the database went away) ends the call, but never before the runs it started.
      await Promise.all(running);
    }
    return report;
  }

  async #runPool(running: Set<Promise<void>>, report: SchedulerReport): Promise<void> {
    for (;;) {
      const free = this.deps.concurrency - running.size;
      const claims = free > 0 && !this.#stopping ? await this.#claim(free) : [];
      for (const claim of claims) {
        const run: Promise<void> = this.#run(claim, report)
          .catch((error: unknown) =>
            this.deps.log.warn(
              { monitor: claim.monitor.id, err: error instanceof Error ? error.message : String(error) },
              "a monitor run could not be recorded; its lease runs out and it runs again",
            ),
          )
          .finally(() => running.delete(run));
        running.add(run);
      }
      if (running.size === 0) return;
      // Claim again as soon as a slot frees (more may have come due); stop once nothing is left.
      if (claims.length === 0 && free > 0) await Promise.all(running);
      else await Promise.race(running);
    }
  }

  async #claim(limit: number): Promise<Claim[]> {
    const db = this.deps.db();
    const now = this.deps.now();
    if (!(await hasDueMonitors(db, now.toISOString()))) return [];
    const leaseUntil = new Date(now.getTime() + this.deps.leaseMs).toISOString();
    return claimDueMonitors(db, now.toISOString(), leaseUntil, this.instance, limit);
  }

  /** Unconfirmed requests are forgotten (or stopped again) after a week; checked at most hourly per instance. */
  async #sweep(): Promise<void> {
    const now = this.deps.now().getTime();
    if (now - this.#lastSweep < SWEEP_EVERY_MS) return;
    this.#lastSweep = now;
    const swept = await sweepUnconfirmed(
      this.deps.db(),
      new Date(now - UNCONFIRMED_MS).toISOString(),
      new Date(now).toISOString(),
    );
    if (swept.removed + swept.stopped > 0)
      this.deps.log.info(
        swept,
        "requests left unconfirmed for 7 days: new ones removed, earlier monitors stopped again",
      );
  }

  async #run(claim: Claim, report: SchedulerReport): Promise<void> {
    const { monitor } = claim;
    const started = this.deps.now();
    let result: Omit<NewRun, "id" | "instance" | "started_at" | "finished_at" | "alerted">;
    try {
      const checked = await this.deps.check(monitor);
      result = {
        ...resultOf(checked),
        report_sealed: this.deps.keys.seal(checked.id),
        incomplete: checked.incomplete,
        suite_version: checked.suite_version,
      };
    } catch (error) {
      // A target refused now (its name resolves to a private address since) is the site's state, recorded as a
      // failed run; the checker's own failure too, so one bad site cannot hold a lease forever. A database
      // outage throws on: the lease runs out and the next claim runs the check again.
      if (isUnavailableError(error)) throw error;
      const refused = error instanceof ApiProblem && error.code === "target-not-allowed";
      const reason = refused
        ? `refused: ${error.detail}`
        : `the checker failed: ${error instanceof Error ? error.message : String(error)}`;
      result = {
        outcome: "failed",
        reason,
        report_sealed: null,
        score: null,
        level: null,
        level_name: null,
        incomplete: false,
        suite_version: null,
        checks: {},
      };
    }
    const finished = this.deps.now();
    const db = this.deps.db();
    const run: NewRun = {
      ...result,
      id: `run_${randomUUID()}`,
      instance: this.instance,
      started_at: started.toISOString(),
      finished_at: finished.toISOString(),
      alerted: false,
    };
    const regression = monitor.email ? regressionOf(run, await previousRuns(db, monitor.id)) : null;
    let alert: SqlStatement | null = null;
    // An address that refused the last alerts for good gets none: the run and its history are kept all the same.
    if (regression && monitor.email && !(await mailStopped(db, monitor.email, "alerts", finished))) {
      run.alerted = true;
      alert = queueMailStatement(
        {
          id: `mail_${randomUUID()}`,
          kind: MONITOR_ALERT_MAIL,
          dedupe_key: `${MONITOR_ALERT_MAIL}:${run.id}`,
          recipient: monitor.email,
          payload: { run_id: run.id },
        },
        run.finished_at,
        runRecorded(run.id),
      );
    }
    const next = new Date(started.getTime() + INTERVAL_MS[monitor.frequency]).toISOString();
    if (await recordRun(db, claim, run, next, alert)) {
      report.recorded++;
      if (alert) report.alerts++;
    } else {
      report.superseded++;
      this.deps.log.warn(
        { run_id: run.id },
        "a monitor run finished after its lease had passed on; its result was dropped",
      );
    }
  }
}
