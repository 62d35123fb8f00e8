import { hashLegacyReportIds } from "../checks/sql/legacy-reports.ts";
import type { Sql } from "../db/sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { hashLegacySessionIds } from "../store/sql/legacy-sessions.ts";

/**
 * Migration 0005's second step, which SQL alone cannot take: the credentials it marked `legacy:`
 * (checkout session ids, report ids) become their keyed hashes. Run wherever the database is opened
 * for use (the server before it answers, every staff command, `npm run db:migrate`), so no copy made
 * after the first of those holds a credential. A no-op that loads nothing once done.
 */
export async function rewriteLegacyCredentials(
  sql: Sql,
  keys: () => Promise<LookupKeys>,
): Promise<{ orders: number; reports: number }> {
  return { orders: await hashLegacySessionIds(sql, keys), reports: await hashLegacyReportIds(sql, keys) };
}
