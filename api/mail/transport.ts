import { createRequire } from "node:module";
import type * as Nodemailer from "nodemailer";

/**
 * nodemailer, loaded when a transport is made: without SMTP_URL nothing sends, and its modules
 * were a tenth of every server start's CPU.
 */
const nodemailer = () => createRequire(import.meta.url)("nodemailer") as typeof Nodemailer;

/** A rendered message, ready for SMTP. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Header fields beyond the ones every message has (`List-Unsubscribe` on an alert, RFC 8058). */
  headers?: Readonly<Record<string, string>>;
}

export interface MailTransport {
  /**
   * Hands the message to the SMTP server; resolves once the server accepted it. `messageId` is
   * stable per outbox row, so a message re-sent after a crash can be recognised as the same one.
   */
  send(mail: OutgoingMail & { from: string; messageId: string }): Promise<void>;
  close(): void;
}

/**
 * Whether the SMTP server refused for good: a 5yz reply (RFC 5321 §4.2.1), such as 550 for a mailbox
 * that does not exist. nodemailer puts the reply code on the error it throws; 4yz replies and lost
 * connections are temporary and retried.
 */
export function isPermanentRejection(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("responseCode" in error)) return false;
  const code = error.responseCode;
  return typeof code === "number" && code >= 500 && code < 600;
}

/**
 * SMTP through nodemailer from `SMTP_URL` (`smtp://user:pass@host:587`, or `smtps://` for implicit
 * TLS; nodemailer upgrades with STARTTLS when offered). Timeouts are short and well under the
 * outbox lease, so a hung server cannot make two workers send the same row.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const transporter = nodemailer().createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
    secure: url.protocol === "smtps:",
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        ...(mail.headers ? { headers: { ...mail.headers } } : {}),
      });
    },
    close() {
      transporter.close();
    },
  };
}
