import type { Row, Sql, SqlStatement } from "../../db/sql.ts";

export interface CheckPaymentRecord {
  payment_id: string;
  /** The report's keyed hash (StoredReport.key), as check_reports keeps it. */
  report_id: string;
  purchase: "unlock" | "pack";
  pack_id: string | null;
  credits: number;
  email: string;
  amount: number;
  currency: string;
  status: "created" | "succeeded" | "failed";
  created_at: string;
  completed_at: string | null;
}

const COLUMNS =
  "payment_id, report_id, purchase, pack_id, credits, email, amount, currency, status, created_at, completed_at";

function toRecord(row: Row): CheckPaymentRecord {
  return {
    payment_id: String(row.payment_id),
    report_id: String(row.report_id),
    purchase: String(row.purchase) as CheckPaymentRecord["purchase"],
    pack_id: row.pack_id === null ? null : String(row.pack_id),
    credits: Number(row.credits),
    email: String(row.email),
    amount: Number(row.amount),
    currency: String(row.currency),
    status: String(row.status) as CheckPaymentRecord["status"],
    created_at: String(row.created_at),
    completed_at: row.completed_at === null ? null : String(row.completed_at),
  };
}

/** A payment intent handed to a buyer; a repeated checkout (same intent) leaves the first record. */
export async function recordStartedCheckPayment(
  sql: Sql,
  payment: Omit<CheckPaymentRecord, "status" | "completed_at">,
): Promise<void> {
  await sql.execute({
    sql: `INSERT INTO check_payments (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'created', ?, NULL) ON CONFLICT (payment_id) DO NOTHING`,
    args: [
      payment.payment_id,
      payment.report_id,
      payment.purchase,
      payment.pack_id,
      payment.credits,
      payment.email,
      payment.amount,
      payment.currency,
      payment.created_at,
    ],
  });
}

/**
 * The payment as the provider confirmed it. Written whether or not it was recorded at checkout (a
 * hosted checkout's payment intent only exists once the buyer pays); the first completion stays.
 */
export function checkPaymentSucceededStatement(
  payment: Omit<CheckPaymentRecord, "status" | "created_at" | "completed_at">,
  at: string,
): SqlStatement {
  return {
    sql: `INSERT INTO check_payments (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'succeeded', ?, ?)
          ON CONFLICT (payment_id) DO UPDATE SET status = 'succeeded', amount = excluded.amount, currency = excluded.currency,
            completed_at = COALESCE(check_payments.completed_at, excluded.completed_at)`,
    args: [
      payment.payment_id,
      payment.report_id,
      payment.purchase,
      payment.pack_id,
      payment.credits,
      payment.email,
      payment.amount,
      payment.currency,
      at,
      at,
    ],
  };
}

export async function findCheckPayment(sql: Sql, paymentId: string): Promise<CheckPaymentRecord | null> {
  const row = await sql.queryOne({
    sql: `SELECT ${COLUMNS} FROM check_payments WHERE payment_id = ?`,
    args: [paymentId],
  });
  return row ? toRecord(row) : null;
}
