import { randomUUID } from "node:crypto";
import type { Sql } from "../../api/db/sql.ts";

/** A new locked report: a copy, under a fresh id, of a stored one (e.g. one real check of the fixture site). */
export async function copyReport(sql: Sql, sourceId: string): Promise<string> {
  const id = randomUUID();
  const copied = await sql.execute({
    sql: `INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, details, created_at)
          SELECT ?, origin, input, suite_version, score, level, result, details, ? FROM check_reports WHERE id = ?`,
    args: [id, new Date().toISOString(), sourceId],
  });
  if (copied.rowsAffected !== 1) throw new Error(`no report ${sourceId} to copy`);
  return id;
}
