import {
  type CheckDetail,
  CheckDetailSchema,
  type ReadinessResult,
  type ReadinessSummary,
  ReadinessSummarySchema,
} from "../../../src/schemas/report.ts";
import type { Row, Sql } from "../../db/sql.ts";
import { SUITE_VERSION } from "../engine/suite/version.ts";

export interface StoredReport {
  /** The report's id, its link: known to whoever asks for it, never stored. */
  id: string;
  /** What the database keeps and the rows naming the report refer to: `LookupKeys.hash("report", id)`. */
  key: string;
  summary: ReadinessSummary;
  /** The evidence and fixes: `null` while the report is locked, because nothing may show them then. */
  details: CheckDetail[] | null;
  created_at: string;
  unlocked_at: string | null;
  unlock_source: "credit" | "payment" | "staff" | null;
}

const DetailsSchema = CheckDetailSchema.array();

/**
 * A report the current suite wrote was built by typed code and is read back as is; one an older
 * suite wrote is parsed, not trusted, since it must still match the published shape. (Validating a
 * few hundred kilobytes of evidence on every read was most of a report read's cost.)
 */
function toReport(row: Row, id: string): StoredReport {
  const current = row.suite_version === SUITE_VERSION;
  const { details: inline, ...rawSummary } = JSON.parse(String(row.result)) as Record<string, unknown>;
  const unlocked = row.unlocked_at !== null;
  const rawDetails = unlocked ? (row.details === null ? inline : JSON.parse(String(row.details))) : null;
  return {
    id,
    key: String(row.id),
    summary: current ? (rawSummary as ReadinessSummary) : ReadinessSummarySchema.parse(rawSummary),
    details: rawDetails === null ? null : current ? (rawDetails as CheckDetail[]) : DetailsSchema.parse(rawDetails),
    created_at: String(row.created_at),
    unlocked_at: unlocked ? String(row.unlocked_at) : null,
    unlock_source: row.unlock_source === null ? null : (String(row.unlock_source) as StoredReport["unlock_source"]),
  };
}

/** Stores a report under `key`, its id's keyed hash. */
export async function insertReport(sql: Sql, key: string, result: ReadinessResult, at: string): Promise<void> {
  const { details, ...summary } = result;
  await sql.execute({
    sql: "INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    args: [
      key,
      result.target.origin,
      result.target.input,
      result.suite_version,
      result.score.percent,
      result.level.value,
      JSON.stringify(summary),
      JSON.stringify(details),
      at,
    ],
  });
}

/** The report stored under `key` (its id's keyed hash), named `id` for whoever asked. */
export async function findReport(sql: Sql, key: string, id: string): Promise<StoredReport | null> {
  // The details column is named only for an unlocked report, so a locked one's are never read from disk.
  const row = await sql.queryOne({
    sql: "SELECT id, suite_version, result, CASE WHEN unlocked_at IS NULL THEN NULL ELSE details END AS details, created_at, unlocked_at, unlock_source FROM check_reports WHERE id = ?",
    args: [key],
  });
  return row ? toReport(row, id) : null;
}

/** Unlocks once: `false` when it was already unlocked (or does not exist). */
export async function unlockReport(
  sql: Sql,
  key: string,
  source: "payment" | "staff",
  ref: string,
  at: string,
): Promise<boolean> {
  const result = await sql.execute({
    sql: "UPDATE check_reports SET unlocked_at = ?, unlock_source = ?, unlock_ref = ? WHERE id = ? AND unlocked_at IS NULL",
    args: [at, source, ref, key],
  });
  return result.rowsAffected === 1;
}
