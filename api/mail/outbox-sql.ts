import type { Row, Sql, SqlStatement, SqlValue } from "../db/sql.ts";

export type MailState = "queued" | "sending" | "sent" | "failed" | "cancelled";

/**
 * The payload member holding what a message must show but the database must not keep readable (a
 * purchase page's session id, a report's id), sealed by the feature that queued it
 * (api/platform/credentials/lookup-keys.ts). It is dropped once the message is sent or cancelled,
 * so it lives only while it may still be needed.
 */
export const SEALED = "sealed";
const DROP_SEALED = `payload = json_remove(payload, '$.${SEALED}')`;

export interface QueuedMail {
  id: string;
  /** Names the template that renders it when it is sent. */
  kind: string;
  /** At most one message per key, ever: a replayed fulfilment cannot queue a second copy. */
  dedupe_key: string;
  recipient: string;
  payload: Record<string, unknown>;
}

export interface OutboxRow extends QueuedMail {
  state: MailState;
  attempts: number;
  next_attempt_at: string;
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

function toOutboxRow(row: Row): OutboxRow {
  const state = String(row.state);
  const payload: unknown = JSON.parse(String(row.payload));
  return {
    id: String(row.id),
    kind: String(row.kind),
    dedupe_key: String(row.dedupe_key),
    recipient: String(row.recipient),
    payload:
      typeof payload === "object" && payload !== null && !Array.isArray(payload)
        ? Object.fromEntries(Object.entries(payload))
        : {},
    state: state === "sending" || state === "sent" || state === "failed" || state === "cancelled" ? state : "queued",
    attempts: Number(row.attempts),
    next_attempt_at: String(row.next_attempt_at),
    lease_until: row.lease_until === null ? null : String(row.lease_until),
    last_error: row.last_error === null ? null : String(row.last_error),
    created_at: String(row.created_at),
    sent_at: row.sent_at === null ? null : String(row.sent_at),
  };
}

/**
 * Queues a message as one statement for the caller's batch, so the message exists exactly when
 * what it announces does. With `when`, it is queued only if that SQL condition holds inside the
 * batch (for example: this call won the fulfilment).
 */
export function queueMailStatement(
  mail: QueuedMail,
  at: string,
  when?: { sql: string; args: readonly SqlValue[] },
): SqlStatement {
  return {
    sql: `INSERT INTO mail_outbox (id, kind, dedupe_key, recipient, payload, state, attempts, next_attempt_at, created_at)
          SELECT ?, ?, ?, ?, ?, 'queued', 0, ?, ? WHERE ${when?.sql ?? "true"}
          ON CONFLICT (dedupe_key) DO NOTHING`,
    args: [
      mail.id,
      mail.kind,
      mail.dedupe_key,
      mail.recipient,
      JSON.stringify(mail.payload),
      at,
      at,
      ...(when?.args ?? []),
    ],
  };
}

/**
 * The condition for queuing one more message of `kind` to `recipient` (for `queueMailStatement`'s
 * `when`): none of its kind is still waiting to go (that one will carry what this one would), and
 * fewer than `max` were queued since `since`. Evaluated inside the caller's batch, so requests at
 * the same moment on any instance cannot both pass it.
 */
export function mailQuota(
  kind: string,
  recipient: string,
  since: string,
  max: number,
): { sql: string; args: SqlValue[] } {
  return {
    sql: `NOT EXISTS (SELECT 1 FROM mail_outbox WHERE kind = ? AND recipient = ? AND state = 'queued')
          AND (SELECT COUNT(*) FROM mail_outbox WHERE kind = ? AND recipient = ? AND created_at > ?) < ?`,
    args: [kind, recipient, kind, recipient, since, max],
  };
}

/**
 * Adds `value` to the array at `$.<member>` of the payload of the message of `kind` to `recipient`
 * still waiting to go, unless it is there already or the array holds `max` items: a later request
 * joins the message an earlier one queued.
 */
export function appendToQueuedMailStatement(
  kind: string,
  recipient: string,
  member: string,
  value: string,
  max: number,
): SqlStatement {
  const path = `$.${member}`;
  return {
    sql: `UPDATE mail_outbox SET payload = json_insert(payload, '${path}[#]', ?)
          WHERE kind = ? AND recipient = ? AND state = 'queued'
            AND json_array_length(payload, '${path}') < ?
            AND NOT EXISTS (SELECT 1 FROM json_each(mail_outbox.payload, '${path}') WHERE value = ?)`,
    args: [value, kind, recipient, max, value],
  };
}

/**
 * Whether the last `times` messages of these kinds to `recipient` were all refused for good
 * (`refusedPrefix` starts their `last_error`), the latest of them queued after `since`, and no
 * message of any kind has reached the address since the first of them.
 */
export async function refusedInARow(
  sql: Sql,
  query: { recipient: string; kinds: readonly string[]; times: number; since: string; refusedPrefix: string },
): Promise<boolean> {
  const { recipient, kinds, times } = query;
  const result = await sql.execute({
    sql: `SELECT state, last_error, created_at FROM mail_outbox
          WHERE recipient = ? AND kind IN (${kinds.map(() => "?").join(", ")}) AND state IN ('sent', 'failed')
          ORDER BY created_at DESC, id DESC LIMIT ?`,
    args: [recipient, ...kinds, times],
  });
  const rows = result.rows;
  const refused = (row: Row) => row.state === "failed" && String(row.last_error ?? "").startsWith(query.refusedPrefix);
  const newest = rows[0];
  const oldest = rows.at(-1);
  if (rows.length < times || !rows.every(refused) || !newest || !oldest) return false;
  if (String(newest.created_at) <= query.since) return false;
  const delivered = await sql.queryOne({
    sql: "SELECT 1 AS delivered FROM mail_outbox WHERE recipient = ? AND state = 'sent' AND sent_at >= ? LIMIT 1",
    args: [recipient, String(oldest.created_at)],
  });
  return delivered === undefined;
}

/** A read before the claim, so an idle outbox costs the database no write every few seconds. */
export async function hasDueMail(sql: Sql, now: string): Promise<boolean> {
  const row = await sql.queryOne({
    sql: "SELECT 1 AS due FROM mail_outbox WHERE (state = 'queued' AND next_attempt_at <= ?) OR (state = 'sending' AND lease_until <= ?) LIMIT 1",
    args: [now, now],
  });
  return row !== undefined;
}

/**
 * Claims up to `limit` due messages with one statement: queued ones whose time has come, and ones
 * whose sender's lease ran out (it died mid-send). No two workers, on any instance, hold a row.
 */
export async function claimDueMail(sql: Sql, now: string, leaseUntil: string, limit: number): Promise<OutboxRow[]> {
  const result = await sql.execute({
    sql: `UPDATE mail_outbox SET state = 'sending', lease_until = ?, attempts = attempts + 1
          WHERE id IN (
            SELECT id FROM mail_outbox
            WHERE (state = 'queued' AND next_attempt_at <= ?) OR (state = 'sending' AND lease_until <= ?)
            ORDER BY next_attempt_at LIMIT ?)
          RETURNING *`,
    args: [leaseUntil, now, now, limit],
  });
  return result.rows.map(toOutboxRow);
}

/**
 * The outcome of one claim, fenced by its attempt number: a worker whose lease ran out and was
 * claimed again cannot overwrite the new holder's result.
 */
export async function markMailSent(sql: Sql, claim: { id: string; attempts: number }, at: string): Promise<void> {
  await sql.execute({
    sql: `UPDATE mail_outbox SET state = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL, ${DROP_SEALED} WHERE id = ? AND state = 'sending' AND attempts = ?`,
    args: [at, claim.id, claim.attempts],
  });
}

export async function markMailRetry(
  sql: Sql,
  claim: { id: string; attempts: number },
  nextAttemptAt: string,
  error: string,
): Promise<void> {
  await sql.execute({
    sql: "UPDATE mail_outbox SET state = 'queued', next_attempt_at = ?, lease_until = NULL, last_error = ? WHERE id = ? AND state = 'sending' AND attempts = ?",
    args: [nextAttemptAt, error.slice(0, 500), claim.id, claim.attempts],
  });
}

export async function markMailFinished(
  sql: Sql,
  claim: { id: string; attempts: number },
  state: "failed" | "cancelled",
  reason: string,
): Promise<void> {
  await sql.execute({
    sql: `UPDATE mail_outbox SET state = ?, lease_until = NULL, last_error = ?,
            payload = CASE WHEN ? = 'cancelled' THEN json_remove(payload, '$.${SEALED}') ELSE payload END
          WHERE id = ? AND state = 'sending' AND attempts = ?`,
    args: [state, reason.slice(0, 500), state, claim.id, claim.attempts],
  });
}

/** A queued message that no longer makes sense (the purchase was refunded before it went). */
/**
 * After an outage (SMTP down), makes every waiting message due now instead of at its backoff time;
 * with `includeFailed`, messages that used up their attempts get a fresh round. Returns how many.
 * Sending still goes through the claim, so no message is sent twice.
 */
export async function makeMailDueNow(sql: Sql, now: string, includeFailed: boolean): Promise<number> {
  const result = await sql.execute({
    sql: `UPDATE mail_outbox SET next_attempt_at = ?, state = 'queued', attempts = CASE WHEN state = 'failed' THEN 0 ELSE attempts END
          WHERE state = 'queued' OR (? AND state = 'failed')`,
    args: [now, includeFailed ? 1 : 0],
  });
  return result.rowsAffected;
}

/**
 * Seals `value` as `SEALED.name` into the messages of `kind` still to be sent whose payload's
 * `key` is `equals` (migration 0005 gives rows queued before it what their e-mail must show).
 */
export function addSealedStatement(
  kind: string,
  match: { key: string; equals: string },
  name: string,
  value: string,
  when: { sql: string; args: readonly SqlValue[] },
): SqlStatement {
  return {
    sql: `UPDATE mail_outbox SET payload = json_set(payload, '$.${SEALED}.${name}', ?)
          WHERE kind = ? AND state IN ('queued', 'sending', 'failed') AND json_extract(payload, '$.${match.key}') = ? AND ${when.sql}`,
    args: [value, kind, match.equals, ...when.args],
  };
}

export function cancelQueuedMailStatement(dedupeKey: string, reason: string): SqlStatement {
  return {
    sql: `UPDATE mail_outbox SET state = 'cancelled', last_error = ?, ${DROP_SEALED} WHERE dedupe_key = ? AND state = 'queued'`,
    args: [reason, dedupeKey],
  };
}

export async function listOutbox(sql: Sql, options: { state?: MailState; limit: number }): Promise<OutboxRow[]> {
  const where = options.state ? "WHERE state = ?" : "";
  const result = await sql.execute({
    sql: `SELECT * FROM mail_outbox ${where} ORDER BY created_at DESC LIMIT ?`,
    args: options.state ? [options.state, options.limit] : [options.limit],
  });
  return result.rows.map(toOutboxRow);
}

export async function countOutbox(sql: Sql, kind: string, recipient?: string): Promise<number> {
  const row = await sql.queryOne({
    sql: `SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = ?${recipient ? " AND recipient = ?" : ""}`,
    args: recipient ? [kind, recipient] : [kind],
  });
  return Number(row?.n ?? 0);
}
