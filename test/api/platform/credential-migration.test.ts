import { describe, expect, it } from "vitest";
import { FileSql } from "../../../api/db/file-sql.ts";
import type { LookupKeys } from "../../../api/platform/credentials/lookup-keys.ts";
import { useSecretBed } from "../../helpers/secret-bed.ts";

const bed = useSecretBed();

/**
 * The database as a version before migration 0005 left it, with the same rows: session ids and
 * report ids in plain text, e-mails queued without a seal, no standing epoch, no lookup key. (The
 * rows are made by today's code, then put back the way the old code stored them.)
 */
async function asBeforeMigration5(file: string, keys: LookupKeys, sessions: string[], reports: string[]) {
  const sql = new FileSql(file, 5_000);
  try {
    const statements = [
      "PRAGMA defer_foreign_keys = ON",
      ...sessions.map((id) => ({
        sql: "UPDATE store_orders SET session_hash = ? WHERE session_hash = ?",
        args: [id, keys.hash("checkout-session", id)],
      })),
      ...reports.flatMap((id) =>
        [
          "UPDATE credit_ledger SET report_id = ? WHERE report_id = ?",
          "UPDATE check_payments SET report_id = ? WHERE report_id = ?",
          "UPDATE check_reports SET id = ? WHERE id = ?",
        ].map((statement) => ({ sql: statement, args: [id, keys.hash("report", id)] })),
      ),
      "UPDATE mail_outbox SET payload = json_remove(payload, '$.sealed')",
      "DELETE FROM settings WHERE key LIKE 'lookup_key:%'",
      "DELETE FROM schema_migrations WHERE version = 5",
    ].map((statement) => (typeof statement === "string" ? { sql: statement } : statement));
    await sql.batch(statements, "write");
    await sql.executeMultiple(`
      ALTER TABLE store_orders RENAME COLUMN session_hash TO session_id;
      DROP TRIGGER agent_tokens_standing_changed; DROP TRIGGER agent_tokens_deleted;
      DROP TRIGGER agents_standing_changed; DROP TRIGGER agents_deleted; DROP TABLE agent_standing_epoch;`);
  } finally {
    sql.close();
  }
}

async function column(file: string, query: string): Promise<unknown[]> {
  const sql = new FileSql(file, 5_000);
  try {
    return (await sql.execute(query)).rows.map((row) => Object.values(row)[0]);
  } finally {
    sql.close();
  }
}

describe("migration 0005 on a database with purchases, reports and e-mails waiting", () => {
  it("replaces every stored session id and report id by its keyed hash, and everything keeps working", async () => {
    const before = await bed.instance();
    const sessionId = await before.buy("agent-readiness-checklist", { email: "legacy-buyer@example.com" });
    await before.fake.pay(sessionId);
    const reportId = await bed.newReport(before);
    await bed.payForReport(before, reportId, { purchase: "unlock", email: "legacy-unlock@example.com" });
    const keys = before.t.services.keys;
    await before.close();
    await asBeforeMigration5(bed.databaseFile, keys, [sessionId], [reportId]);
    expect(await column(bed.databaseFile, "SELECT session_id FROM store_orders")).toEqual([sessionId]);
    expect(await column(bed.databaseFile, "SELECT id FROM check_reports")).toEqual([reportId]);

    const after = await bed.instance();
    // The old database had no lookup key: one is made, and every marked row is keyed under it.
    const now = after.t.services.keys;
    expect(await column(bed.databaseFile, "SELECT session_hash FROM store_orders")).toEqual([
      now.hash("checkout-session", sessionId),
    ]);
    expect(await column(bed.databaseFile, "SELECT id FROM check_reports")).toEqual([now.hash("report", reportId)]);
    expect(
      await column(bed.databaseFile, "SELECT DISTINCT report_id FROM credit_ledger WHERE report_id IS NOT NULL"),
    ).toEqual([now.hash("report", reportId)]);
    expect(await column(bed.databaseFile, "SELECT report_id FROM check_payments")).toEqual([
      now.hash("report", reportId),
    ]);
    expect(await column(bed.databaseFile, "PRAGMA foreign_key_check")).toEqual([]);
    const stored = await column(
      bed.databaseFile,
      "SELECT group_concat(value, ' ') FROM (SELECT session_hash AS value FROM store_orders UNION ALL SELECT id FROM check_reports UNION ALL SELECT payload FROM mail_outbox UNION ALL SELECT report_id FROM credit_ledger UNION ALL SELECT report_id FROM check_payments)",
    );
    expect(String(stored[0])).not.toContain(sessionId);
    expect(String(stored[0])).not.toContain(reportId);

    // The ids still work where they are credentials.
    expect((await after.session(sessionId)).status).toBe(200);
    expect((await after.t.send("GET", `/api/v1/store/sessions/${sessionId}/download`)).status).toBe(200);
    const report = (await (await after.t.send("GET", `/api/v1/checks/${reportId}`)).json()) as { locked: boolean };
    expect(report.locked).toBe(false);
    // And the e-mails that were waiting still link the purchase page and the report.
    const delivery = await bed.receiptTo(after, "legacy-buyer@example.com");
    expect(delivery).toContain(`/store/return?session_id=${sessionId}`);
    const receipt = await bed.receiptTo(after, "legacy-unlock@example.com");
    expect(receipt).toContain(`/checks/${reportId}`);
    await after.close();

    // A second start finds nothing left to rewrite, and the rows keep their hashes.
    const again = await bed.instance();
    expect(again.t.services.keys.id).toBe(now.id);
    expect(await column(bed.databaseFile, "SELECT session_hash FROM store_orders")).toEqual([
      now.hash("checkout-session", sessionId),
    ]);
    await again.close();
  });
});
