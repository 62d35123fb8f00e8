import { EmailSchema } from "../../src/schemas/common.ts";
import type { Sql } from "../db/sql.ts";
import type { Logger } from "../platform/log.ts";
import {
  claimDueMail,
  hasDueMail,
  markMailFinished,
  markMailRetry,
  markMailSent,
  type OutboxRow,
} from "./outbox-sql.ts";
import { isPermanentRejection, type MailTransport, type OutgoingMail } from "./transport.ts";

/** The subject and bodies of one message; plain text and HTML carry the same content. */
export type RenderedMail = Omit<OutgoingMail, "to">;

/** A message its template decided not to send, and why (kept on the row for staff). */
export interface SkippedMail {
  skipped: string;
}

/**
 * Renders a queued message when it is sent (so a link's 7 days start then). `null` means there is
 * nothing to send any more (the purchase was refunded meanwhile), `{ skipped }` that it must not go
 * (its address refuses mail): either way the row is cancelled.
 */
export type MailTemplate = (
  payload: Record<string, unknown>,
  sentAt: Date,
) => Promise<RenderedMail | SkippedMail | null>;

/** How a row the SMTP server refused for good (a 5xx reply) starts its `last_error`: what bounce rules read. */
export const REFUSED_FOR_GOOD = "refused for good";

export interface MailOutboxDeps {
  db: () => Sql;
  now: () => Date;
  /** MAIL_FROM. */
  from: string;
  /** The host part of every Message-ID. */
  host: string;
  /** `null` without SMTP_URL: messages wait in the outbox (`npm run admin -- outbox list`). */
  transport: MailTransport | null;
  /** Every kind of message a row can be, by its `kind` (api/wiring/mail-templates.ts gathers them from the features). */
  templates: Readonly<Record<string, MailTemplate>>;
  log: Logger;
}

export interface DeliveryReport {
  sent: number;
  retried: number;
  failed: number;
  cancelled: number;
}

/** How long a claimed row is held; far longer than the SMTP timeouts, so a live sender never loses it. */
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 8;

/** 30 s, 1 min, 2 min … capped at 1 h: eight attempts span about two hours. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

/**
 * The e-mail outbox (transactional outbox pattern): features queue rows in the same batch as what
 * they announce; this sends them. A row is claimed with one UPDATE … RETURNING, so no two
 * workers on any instance send it; it is marked sent right after the SMTP server accepts it.
 * Only a crash between that acceptance and the mark can send a message twice (at-least-once); the
 * stable Message-ID lets mail systems recognise the copy.
 */
export class MailOutbox {
  private readonly deps: MailOutboxDeps;

  constructor(deps: MailOutboxDeps) {
    this.deps = deps;
  }

  get configured(): boolean {
    return this.deps.transport !== null;
  }

  /** The message a row would be sent as now (the staff CLI prints these when there is no SMTP). */
  async render(row: OutboxRow, at: Date): Promise<(RenderedMail & { to: string }) | SkippedMail | null> {
    const template = Object.hasOwn(this.deps.templates, row.kind) ? this.deps.templates[row.kind] : undefined;
    if (!template) throw new Error(`No mail template for ${row.kind}`);
    const rendered = await template(row.payload, at);
    return rendered && !("skipped" in rendered) ? { ...rendered, to: row.recipient } : rendered;
  }

  /** Sends what is due, once; the worker calls this on a timer and the CLI once. */
  async deliverDue(limit = 20): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retried: 0, failed: 0, cancelled: 0 };
    const { transport } = this.deps;
    if (!transport) return report;
    const db = this.deps.db();
    const now = this.deps.now();
    if (!(await hasDueMail(db, now.toISOString()))) return report;
    const claimed = await claimDueMail(db, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString(), limit);
    for (const row of claimed) {
      // A recipient stored before the API took only addresses the transport sends to as written
      // (it would split "x,attacker@evil.example" into two): never sent, so staff can correct it.
      if (!EmailSchema.safeParse(row.recipient).success) {
        await markMailFinished(db, row, "failed", "the recipient is not an address the transport sends to as written");
        report.failed++;
        this.deps.log.error({ mail_id: row.id, kind: row.kind }, "refused to send an e-mail to a malformed recipient");
        continue;
      }
      let message: Awaited<ReturnType<MailOutbox["render"]>>;
      try {
        message = await this.render(row, now);
      } catch (error) {
        await markMailFinished(
          db,
          row,
          "failed",
          `could not render: ${error instanceof Error ? error.message : String(error)}`,
        );
        report.failed++;
        continue;
      }
      if (!message || "skipped" in message) {
        await markMailFinished(db, row, "cancelled", message?.skipped ?? "nothing to send any more");
        report.cancelled++;
        continue;
      }
      try {
        await transport.send({ ...message, from: this.deps.from, messageId: `<${row.id}@${this.deps.host}>` });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        if (isPermanentRejection(error)) {
          // Retrying a permanent refusal only repeats it: the row fails now, and stays on record for
          // the features' bounce rules (a refusal removes nothing: it can be one a stranger provoked).
          await markMailFinished(db, row, "failed", `${REFUSED_FOR_GOOD}: ${reason}`);
          report.failed++;
          this.deps.log.warn({ mail_id: row.id, kind: row.kind }, "the SMTP server refused an e-mail for good");
          continue;
        }
        if (row.attempts >= MAX_ATTEMPTS) {
          await markMailFinished(db, row, "failed", reason);
          report.failed++;
          this.deps.log.error({ mail_id: row.id, kind: row.kind, attempts: row.attempts }, "gave up sending an e-mail");
        } else {
          await markMailRetry(
            db,
            row,
            new Date(this.deps.now().getTime() + retryDelayMs(row.attempts)).toISOString(),
            reason,
          );
          report.retried++;
          this.deps.log.warn(
            { mail_id: row.id, kind: row.kind, attempts: row.attempts, err: reason },
            "sending an e-mail failed; will retry",
          );
        }
        continue;
      }
      await markMailSent(db, row, this.deps.now().toISOString());
      report.sent++;
      this.deps.log.info({ mail_id: row.id, kind: row.kind }, "e-mail sent");
    }
    return report;
  }
}
