import { randomUUID } from "node:crypto";
import type { Sql, SqlStatement } from "../../db/sql.ts";

export interface NewCreditCode {
  id: string;
  codeHash: string;
  hint: string;
  credits: number;
  source: "staff" | "payment";
  sourceRef: string | null;
  email: string | null;
  at: string;
}

/**
 * The code and its `issued` ledger entry. A code already there (the payment's, on a replay) is
 * left alone, and then no ledger entry is written either.
 */
export function creditCodeStatements(code: NewCreditCode): SqlStatement[] {
  return [
    {
      sql: `INSERT INTO credit_codes (id, code_hash, hint, credits_total, credits_remaining, source, source_ref, email, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      args: [
        code.id,
        code.codeHash,
        code.hint,
        code.credits,
        code.credits,
        code.source,
        code.sourceRef,
        code.email,
        code.at,
      ],
    },
    {
      sql: "INSERT INTO credit_ledger (code_id, delta, reason, nonce, at) SELECT ?, ?, 'issued', ?, ? WHERE changes() = 1",
      args: [code.id, code.credits, randomUUID(), code.at],
    },
  ];
}

/** Inserts a code; `false` when it (or its payment's code) was already there. */
export async function insertCreditCode(sql: Sql, code: NewCreditCode): Promise<boolean> {
  const [inserted] = await sql.batch(creditCodeStatements(code), "write");
  return inserted?.rowsAffected === 1;
}

export type Redemption =
  | { outcome: "unlocked"; creditsRemaining: number }
  | { outcome: "unknown-code" }
  | { outcome: "already-unlocked" }
  | { outcome: "no-credits-left" };

/** How the report records its unlock: by a credit (the attempt's nonce) or by the payment that bought the credit. */
export type UnlockMark = { source: "credit" } | { source: "payment"; ref: string };

/**
 * Spends one credit to unlock one report, atomically, in a single write batch (which holds the
 * write lock from its first statement, on every instance):
 * 1. spend a credit only if the code is live, has one left, and the report is still locked;
 * 2. unlock the report only if step 1 spent (`changes()` is the previous statement's count);
 * 3. record the spend in the ledger, tagged with this attempt's nonce, only if step 2 unlocked.
 * No application-side read-then-write: concurrent redemptions of one code for many reports unlock
 * exactly as many reports as it had credits.
 */
export function spendCreditStatements(
  codeHash: string,
  reportKey: string,
  at: string,
  nonce: string,
  mark: UnlockMark = { source: "credit" },
): SqlStatement[] {
  return [
    {
      sql: `UPDATE credit_codes SET credits_remaining = credits_remaining - 1
             WHERE code_hash = ? AND revoked_at IS NULL AND credits_remaining > 0
               AND EXISTS (SELECT 1 FROM check_reports WHERE id = ? AND unlocked_at IS NULL)`,
      args: [codeHash, reportKey],
    },
    {
      sql: "UPDATE check_reports SET unlocked_at = ?, unlock_source = ?, unlock_ref = ? WHERE id = ? AND unlocked_at IS NULL AND changes() = 1",
      args: [at, mark.source, mark.source === "payment" ? mark.ref : nonce, reportKey],
    },
    {
      sql: "INSERT INTO credit_ledger (code_id, report_id, delta, reason, nonce, at) SELECT id, ?, -1, 'redeemed', ?, ? FROM credit_codes WHERE code_hash = ? AND changes() = 1",
      args: [reportKey, nonce, at, codeHash],
    },
  ];
}

/** Spends one credit of the code on the report (see `spendCreditStatements`), then reads back what happened. */
/** `reportKey` is the report's keyed hash (StoredReport.key), as check_reports and the ledger keep it. */
export async function redeemCredit(sql: Sql, codeHash: string, reportKey: string, at: string): Promise<Redemption> {
  const nonce = randomUUID();
  const results = await sql.batch(
    [
      ...spendCreditStatements(codeHash, reportKey, at, nonce),
      {
        sql: `SELECT (SELECT credits_remaining FROM credit_codes WHERE code_hash = ?) AS remaining,
                     (SELECT revoked_at IS NOT NULL FROM credit_codes WHERE code_hash = ?) AS revoked,
                     (SELECT COUNT(*) FROM credit_ledger WHERE nonce = ?) AS spent,
                     (SELECT unlocked_at IS NOT NULL FROM check_reports WHERE id = ?) AS unlocked`,
        args: [codeHash, codeHash, nonce, reportKey],
      },
    ],
    "write",
  );
  const state = results[3]?.rows[0];
  if (!state || state.remaining === null || Number(state.revoked) === 1) return { outcome: "unknown-code" };
  if (Number(state.spent) === 1) return { outcome: "unlocked", creditsRemaining: Number(state.remaining) };
  if (Number(state.unlocked) === 1) return { outcome: "already-unlocked" };
  return { outcome: "no-credits-left" };
}

/**
 * Which of a code's hashes (one per key of the secret ring) is stored, or `null` for an unknown
 * code. Read before the spend: the spend itself stays the single atomic batch above.
 */
export async function findStoredCodeHash(sql: Sql, hashes: readonly string[]): Promise<string | null> {
  if (hashes.length === 0) return null;
  const row = await sql.queryOne({
    sql: `SELECT code_hash FROM credit_codes WHERE code_hash IN (${hashes.map(() => "?").join(", ")}) LIMIT 1`,
    args: hashes,
  });
  return typeof row?.code_hash === "string" ? row.code_hash : null;
}

/** The stored hash of a code by id: tells which key of the ring it was issued under. */
export async function creditCodeHash(sql: Sql, codeId: string): Promise<string | null> {
  const row = await sql.queryOne({ sql: "SELECT code_hash FROM credit_codes WHERE id = ?", args: [codeId] });
  return typeof row?.code_hash === "string" ? row.code_hash : null;
}

export interface CreditCodeRecord {
  id: string;
  hint: string;
  credits_total: number;
  credits_remaining: number;
  source: string;
  source_ref: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** By id, or by the code's hashes under each key of the secret ring (whichever is stored). */
export async function findCreditCode(
  sql: Sql,
  by: { hashes: readonly string[] } | { id: string },
): Promise<CreditCodeRecord | null> {
  const where =
    "hashes" in by
      ? { sql: `code_hash IN (${by.hashes.map(() => "?").join(", ")})`, args: by.hashes }
      : { sql: "id = ?", args: [by.id] };
  const row = await sql.queryOne({
    sql: `SELECT id, hint, credits_total, credits_remaining, source, source_ref, created_at, revoked_at FROM credit_codes WHERE ${where.sql} LIMIT 1`,
    args: where.args,
  });
  if (!row) return null;
  return {
    id: String(row.id),
    hint: String(row.hint),
    credits_total: Number(row.credits_total),
    credits_remaining: Number(row.credits_remaining),
    source: String(row.source),
    source_ref: row.source_ref === null ? null : String(row.source_ref),
    created_at: String(row.created_at),
    revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
  };
}

export async function creditLedger(
  sql: Sql,
  codeId: string,
): Promise<{ delta: number; reason: string; report_id: string | null; at: string }[]> {
  const result = await sql.execute({
    sql: "SELECT delta, reason, report_id, at FROM credit_ledger WHERE code_id = ? ORDER BY id",
    args: [codeId],
  });
  return result.rows.map((row) => ({
    delta: Number(row.delta),
    reason: String(row.reason),
    report_id: row.report_id === null ? null : String(row.report_id),
    at: String(row.at),
  }));
}

/** Revokes a code: its remaining credits leave through the ledger, so the ledger still balances. A revoked code stays revoked. */
export function revokeCreditCodeStatements(codeId: string, at: string): SqlStatement[] {
  return [
    {
      sql: "INSERT INTO credit_ledger (code_id, delta, reason, nonce, at) SELECT id, -credits_remaining, 'revoked', ?, ? FROM credit_codes WHERE id = ? AND revoked_at IS NULL",
      args: [randomUUID(), at, codeId],
    },
    {
      sql: "UPDATE credit_codes SET revoked_at = ?, credits_remaining = 0 WHERE id = ? AND revoked_at IS NULL",
      args: [at, codeId],
    },
  ];
}

export async function revokeCreditCode(sql: Sql, codeId: string, at: string): Promise<boolean> {
  const [ledger] = await sql.batch(revokeCreditCodeStatements(codeId, at), "write");
  return ledger?.rowsAffected === 1;
}
