import { ReadinessResultSchema, type ReadinessResult } from "../../src/schemas/report.ts";
import type { Row, Sql } from "./sql.ts";

export interface StoredReport {
  id: string;
  result: ReadinessResult;
  created_at: string;
  unlocked_at: string | null;
  unlock_source: "credit" | "payment" | "staff" | null;
}

function toReport(row: Row): StoredReport {
  return {
    id: String(row.id),
    // Parsed, not trusted: a report written by an older suite must still match the published shape.
    result: ReadinessResultSchema.parse(JSON.parse(String(row.result))),
    created_at: String(row.created_at),
    unlocked_at: row.unlocked_at === null ? null : String(row.unlocked_at),
    unlock_source: row.unlock_source === null ? null : (String(row.unlock_source) as StoredReport["unlock_source"]),
  };
}

export async function insertReport(sql: Sql, id: string, result: ReadinessResult, at: string): Promise<void> {
  await sql.execute({
    sql: "INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    args: [id, result.target.origin, result.target.input, result.suite_version, result.score.percent, result.level.value, JSON.stringify(result), at],
  });
}

export async function findReport(sql: Sql, id: string): Promise<StoredReport | null> {
  const row = await sql.queryOne({ sql: "SELECT id, result, created_at, unlocked_at, unlock_source FROM check_reports WHERE id = ?", args: [id] });
  return row ? toReport(row) : null;
}

/** Unlocks once: `false` when it was already unlocked (or does not exist). */
export async function unlockReport(sql: Sql, id: string, source: "payment" | "staff", ref: string, at: string): Promise<boolean> {
  const result = await sql.execute({
    sql: "UPDATE check_reports SET unlocked_at = ?, unlock_source = ?, unlock_ref = ? WHERE id = ? AND unlocked_at IS NULL",
    args: [at, source, ref, id],
  });
  return result.rowsAffected === 1;
}

export async function listRecentReports(sql: Sql, limit: number): Promise<{ id: string; origin: string; score: number | null; level: number; created_at: string; unlocked_at: string | null }[]> {
  const result = await sql.execute({ sql: "SELECT id, origin, score, level, created_at, unlocked_at FROM check_reports ORDER BY created_at DESC LIMIT ?", args: [limit] });
  return result.rows.map((row) => ({
    id: String(row.id),
    origin: String(row.origin),
    score: row.score === null ? null : Number(row.score),
    level: Number(row.level),
    created_at: String(row.created_at),
    unlocked_at: row.unlocked_at === null ? null : String(row.unlocked_at),
  }));
}
