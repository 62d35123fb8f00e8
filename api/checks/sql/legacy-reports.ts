import type { Sql, SqlStatement } from "../../db/sql.ts";
import { addSealedStatement } from "../../mail/outbox-sql.ts";
import type { LookupKeys } from "../../platform/credentials/lookup-keys.ts";
import { CHECK_PAYMENT_MAIL } from "../fulfilment.ts";

const MARK = "legacy:";

/**
 * The checks' half of migration 0005's second step: each report id the migration marked `legacy:`
 * becomes its keyed hash, in the report row and in every row that names it (the ledger, the
 * payments), and a receipt of one of its payments still waiting to be sent gets the id sealed for
 * its link. One batch per report, conditional on the mark, so instances that do it at once do each
 * report once. Answers how many reports it rewrote; the keys are loaded only when there is one.
 */
export async function hashLegacyReportIds(sql: Sql, keys: () => Promise<LookupKeys>): Promise<number> {
  const { rows } = await sql.execute(`SELECT id FROM check_reports WHERE id LIKE '${MARK}%'`);
  if (rows.length === 0) return 0;
  const lookup = await keys();
  for (const row of rows) {
    const marked = String(row.id);
    const id = marked.slice(MARK.length);
    const key = lookup.hash("report", id);
    const stillMarked = { sql: "EXISTS (SELECT 1 FROM check_reports WHERE id = ?)", args: [marked] };
    const payments = await sql.execute({
      sql: "SELECT payment_id FROM check_payments WHERE report_id = ?",
      args: [marked],
    });
    const receipts: SqlStatement[] = payments.rows.map((payment) =>
      addSealedStatement(
        CHECK_PAYMENT_MAIL,
        { key: "payment_id", equals: String(payment.payment_id) },
        "report",
        lookup.seal(id),
        stillMarked,
      ),
    );
    await sql.batch(
      [
        // The report's key changes under the rows that name it: checked at commit, not per statement.
        { sql: "PRAGMA defer_foreign_keys = ON" },
        ...receipts,
        { sql: "UPDATE credit_ledger SET report_id = ? WHERE report_id = ?", args: [key, marked] },
        { sql: "UPDATE check_payments SET report_id = ? WHERE report_id = ?", args: [key, marked] },
        { sql: "UPDATE check_reports SET id = ? WHERE id = ?", args: [key, marked] },
      ],
      "write",
    );
  }
  return rows.length;
}
