import { randomUUID } from "node:crypto";
import { findReport, type StoredReport } from "../../api/checks/sql/reports.ts";
import { Database } from "../../api/db/database.ts";
import type { Sql } from "../../api/db/sql.ts";
import { type LookupKeys, loadLookupKeys } from "../../api/platform/credentials/lookup-keys.ts";
import { loadSecretRing } from "../../api/platform/secret-ring.ts";

/** What a test needs to reach stored reports: the database and its lookup key (reports are stored under a keyed hash of their id). */
export interface ReportStore {
  db: Sql;
  keys: LookupKeys;
}

/** A new locked report: a copy, under a fresh id, of a stored one (e.g. one real check of the fixture site). */
export async function copyReport({ db, keys }: ReportStore, sourceId: string): Promise<string> {
  const id = randomUUID();
  const copied = await db.execute({
    sql: `INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, details, created_at)
          SELECT ?, origin, input, suite_version, score, level, result, details, ? FROM check_reports WHERE id = ?`,
    args: [keys.hash("report", id), new Date().toISOString(), keys.hash("report", sourceId)],
  });
  if (copied.rowsAffected !== 1) throw new Error(`no report ${sourceId} to copy`);
  return id;
}

/** The stored result of a report that checked nothing: enough for credits and unlocks, which never read it. */
const EMPTY_RESULT = {
  suite_version: "2026.11.0",
  target: { input: "x", origin: "https://example.com" },
  checked_at: "2026-11-22T10:00:00.000Z",
  duration_ms: 1,
  requests: 1,
  profile: { inferred: [], applied: [], overridden: false },
  score: { percent: null, pass: 0, fail: 0, warn: 0, na: 0, error: 0 },
  level: { value: 0, name: "Not Ready", next: null },
  categories: [],
  findings: [],
  details: [],
};

/**
 * Locked reports written straight into a database (checking a site needs an allowance; credits do
 * not), by id: stored under the keyed hash of each, as the service stores them.
 */
export async function insertLockedReports(
  client: { execute(statement: { sql: string; args: (string | null)[] }): Promise<unknown> },
  keys: LookupKeys,
  count: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids)
    await client.execute({
      sql: "INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, created_at) VALUES (?, 'https://example.com', 'x', '2026.11.0', NULL, 0, ?, ?)",
      args: [keys.hash("report", id), JSON.stringify(EMPTY_RESULT), new Date().toISOString()],
    });
  return ids;
}

/** The stored report with this id, as the service reads it. */
export function readReport({ db, keys }: ReportStore, id: string): Promise<StoredReport | null> {
  return findReport(db, keys.hash("report", id), id);
}

/**
 * The lookup key of the database a running service uses (reports are stored under keyed hashes of
 * their ids), opened as the service opens it: with SERVER_SECRET, or the secret file beside an
 * embedded database.
 */
export async function lookupKeysOf(databaseUrl: string, serverSecret?: string): Promise<LookupKeys> {
  const database = new Database({ url: databaseUrl, authToken: undefined, timeoutMs: 5_000 });
  try {
    const ring = await loadSecretRing(database, { serverSecret, serverSecretPrevious: [] });
    return await loadLookupKeys(database.client, ring);
  } finally {
    database.close();
  }
}
