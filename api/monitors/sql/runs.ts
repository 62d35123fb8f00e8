import { type CheckStatus, CheckStatusSchema } from "../../../src/schemas/report.ts";
import type { Row, Sql, SqlStatement } from "../../db/sql.ts";
import { type MonitorRow, optionalText, toMonitor } from "./monitors.ts";

/** A check's verdict in one run, as the history keeps it. */
export interface RunCheck {
  status: CheckStatus;
  message: string;
}

export interface RunRow {
  seq: number;
  id: string;
  monitor_id: string;
  scheduled_for: string;
  claim: number;
  instance: string;
  started_at: string;
  finished_at: string;
  outcome: "checked" | "failed";
  reason: string | null;
  /** The report's id, sealed (api/monitors/report-link.ts). */
  report_sealed: string | null;
  score: number | null;
  level: number | null;
  level_name: string | null;
  incomplete: boolean;
  suite_version: string | null;
  checks: Record<string, RunCheck>;
  alerted: boolean;
}

/** A due monitor held by this instance until `lease_until`: `claims` fences the result it may record. */
export interface Claim {
  monitor: MonitorRow;
  scheduledFor: string;
  claim: number;
}

const nullableNumber = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function toChecks(text: string): Record<string, RunCheck> {
  const parsed: unknown = JSON.parse(text);
  const out: Record<string, RunCheck> = {};
  if (typeof parsed !== "object" || parsed === null) return out;
  for (const [id, value] of Object.entries(parsed)) {
    if (!Array.isArray(value)) continue;
    const status = CheckStatusSchema.safeParse(value[0]);
    if (status.success) out[id] = { status: status.data, message: String(value[1] ?? "") };
  }
  return out;
}

export function toRun(row: Row): RunRow {
  return {
    seq: Number(row.seq),
    id: String(row.id),
    monitor_id: String(row.monitor_id),
    scheduled_for: String(row.scheduled_for),
    claim: Number(row.claim),
    instance: String(row.instance),
    started_at: String(row.started_at),
    finished_at: String(row.finished_at),
    outcome: row.outcome === "failed" ? "failed" : "checked",
    reason: optionalText(row.reason),
    report_sealed: optionalText(row.report_sealed),
    score: nullableNumber(row.score),
    level: nullableNumber(row.level),
    level_name: optionalText(row.level_name),
    incomplete: Number(row.incomplete) === 1,
    suite_version: optionalText(row.suite_version),
    checks: toChecks(String(row.checks)),
    alerted: Number(row.alerted) === 1,
  };
}

const DUE = "state = 'active' AND next_run_at <= ? AND (lease_until IS NULL OR lease_until <= ?)";

/** A read before the claim, so an idle scheduler costs the database no write on every tick. */
export async function hasDueMonitors(sql: Sql, now: string): Promise<boolean> {
  return (
    (await sql.queryOne({ sql: `SELECT 1 AS due FROM monitors WHERE ${DUE} LIMIT 1`, args: [now, now] })) !== undefined
  );
}

/**
 * Claims up to `limit` due monitors with one statement: active ones whose time has come and whose
 * lease, if any, has run out (the instance holding it died mid-run). No two instances hold one.
 */
export async function claimDueMonitors(
  sql: Sql,
  now: string,
  leaseUntil: string,
  instance: string,
  limit: number,
): Promise<Claim[]> {
  const result = await sql.execute({
    sql: `UPDATE monitors SET lease_until = ?, lease_owner = ?, claims = claims + 1
          WHERE id IN (SELECT id FROM monitors WHERE ${DUE} ORDER BY next_run_at LIMIT ?)
          RETURNING *`,
    args: [leaseUntil, instance, now, now, limit],
  });
  return result.rows.map((row) => {
    const monitor = toMonitor(row);
    return { monitor, scheduledFor: monitor.next_run_at ?? now, claim: monitor.claims };
  });
}

export type NewRun = Omit<RunRow, "seq" | "monitor_id" | "scheduled_for" | "claim">;

/**
 * Records a run and schedules the next, in one batch, only while `claim` still holds the lease: an
 * instance that lost it (it ran past the lease, and another took over) records nothing, and the
 * due time is unique per monitor besides. `alert` (an outbox statement) is queued only with the run.
 * Answers whether the run was recorded.
 */
export async function recordRun(
  sql: Sql,
  claim: Claim,
  run: NewRun,
  nextRunAt: string,
  alert: SqlStatement | null,
): Promise<boolean> {
  const held = "EXISTS (SELECT 1 FROM monitors WHERE id = ? AND claims = ?)";
  const holder = [claim.monitor.id, claim.claim];
  const results = await sql.batch(
    [
      {
        sql: `INSERT INTO monitor_runs (id, monitor_id, scheduled_for, claim, instance, started_at, finished_at, outcome, reason,
                report_sealed, score, level, level_name, incomplete, suite_version, checks, alerted)
              SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${held}
              ON CONFLICT (monitor_id, scheduled_for) DO NOTHING`,
        args: [
          run.id,
          claim.monitor.id,
          claim.scheduledFor,
          claim.claim,
          run.instance,
          run.started_at,
          run.finished_at,
          run.outcome,
          run.reason,
          run.report_sealed,
          run.score,
          run.level,
          run.level_name,
          run.incomplete ? 1 : 0,
          run.suite_version,
          JSON.stringify(Object.fromEntries(Object.entries(run.checks).map(([id, c]) => [id, [c.status, c.message]]))),
          run.alerted ? 1 : 0,
          ...holder,
        ],
      },
      ...(alert ? [alert] : []),
      {
        // A monitor stopped meanwhile stays stopped: only an active one gets its next time.
        sql: `UPDATE monitors SET lease_until = NULL, lease_owner = NULL,
                next_run_at = CASE WHEN state = 'active' THEN ? ELSE NULL END
              WHERE id = ? AND claims = ?`,
        args: [nextRunAt, ...holder],
      },
    ],
    "write",
  );
  return (results[0]?.rowsAffected ?? 0) === 1;
}

/** The condition an alert's outbox row is queued under: its run was recorded in the same batch. */
export const runRecorded = (runId: string) => ({
  sql: "EXISTS (SELECT 1 FROM monitor_runs WHERE id = ?)",
  args: [runId],
});

/** The monitor's runs, newest first: a page of `limit` before the cursor `before` (a run's `seq`). */
export async function listRuns(sql: Sql, monitorId: string, limit: number, before?: number): Promise<RunRow[]> {
  const result = await sql.execute({
    sql: `SELECT * FROM monitor_runs WHERE monitor_id = ? ${before === undefined ? "" : "AND seq < ?"} ORDER BY seq DESC LIMIT ?`,
    args: before === undefined ? [monitorId, limit] : [monitorId, before, limit],
  });
  return result.rows.map(toRun);
}

/**
 * What a run is judged against: the run before it and the last checked run before it (newest first,
 * one row when they are the same). `beforeSeq` leaves out that run and everything after it.
 */
export async function previousRuns(sql: Sql, monitorId: string, beforeSeq?: number): Promise<RunRow[]> {
  const bound = beforeSeq ?? Number.MAX_SAFE_INTEGER;
  const result = await sql.execute({
    sql: `SELECT * FROM monitor_runs WHERE seq IN (
            SELECT MAX(seq) FROM monitor_runs WHERE monitor_id = ? AND seq < ?
            UNION SELECT MAX(seq) FROM monitor_runs WHERE monitor_id = ? AND seq < ? AND outcome = 'checked')
          ORDER BY seq DESC`,
    args: [monitorId, bound, monitorId, bound],
  });
  return result.rows.map(toRun);
}

export async function findRun(sql: Sql, id: string): Promise<RunRow | null> {
  const row = await sql.queryOne({ sql: "SELECT * FROM monitor_runs WHERE id = ?", args: [id] });
  return row ? toRun(row) : null;
}

/** How many runs each monitor has (the staff list); one query for all of them. */
export async function countRuns(sql: Sql, monitorIds: readonly string[]): Promise<Map<string, number>> {
  if (monitorIds.length === 0) return new Map();
  const result = await sql.execute({
    sql: `SELECT monitor_id, COUNT(*) AS n FROM monitor_runs WHERE monitor_id IN (${monitorIds.map(() => "?").join(", ")}) GROUP BY monitor_id`,
    args: [...monitorIds],
  });
  return new Map(result.rows.map((row) => [String(row.monitor_id), Number(row.n)]));
}
