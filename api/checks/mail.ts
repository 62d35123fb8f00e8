import { z } from "zod";
import { formatMoney } from "../../src/lib/money.ts";
import type { Sql } from "../db/sql.ts";
import { composeMail, type MailParagraph } from "../mail/compose.ts";
import type { MailTemplate } from "../mail/outbox.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { issuedPaymentCode } from "./credit-codes.ts";
import { CHECK_PAYMENT_MAIL, paymentCodeId } from "./fulfilment.ts";
import { creditCodeHash, creditLedger, findCreditCode } from "./sql/credits.ts";
import { findCheckPayment } from "./sql/payments.ts";
import { findReport } from "./sql/reports.ts";

export interface CheckMailDeps {
  db: () => Sql;
  secrets: SecretRing;
  /** Opens the report's id sealed in the payload. */
  keys: LookupKeys;
  reportUrl: (id: string) => string;
  redeemApiUrl: (id: string) => string;
  siteUrl: string;
  serviceName: string;
  contactEmail: string;
}

const Payload = z.object({
  payment_id: z.string().startsWith("pi_"),
  sealed: z.object({ report: z.string().optional() }).optional(),
});

/**
 * The receipt for a report unlock or a credit pack. The code is derived again when the message is
 * sent, so it is never stored in the clear (not even in the outbox). Cancelled if the purchase was
 * refunded or disputed before it went.
 */
export function checkMailTemplates(deps: CheckMailDeps): Record<string, MailTemplate> {
  const signature = `${deps.serviceName} · ${deps.siteUrl} · questions: ${deps.contactEmail}`;

  const receipt: MailTemplate = async (payload) => {
    const { payment_id, sealed } = Payload.parse(payload);
    const db = deps.db();
    const payment = await findCheckPayment(db, payment_id);
    const code = await findCreditCode(db, { id: paymentCodeId(payment_id) });
    // The report's id is its link, kept in this row only, sealed; the database has its hash.
    const reportId = (sealed?.report ? deps.keys.open(sealed.report) : null) ?? "";
    const report = payment ? await findReport(db, payment.report_id, reportId) : null;
    if (!payment || !code || !report || code.revoked_at !== null) return null;
    const host = new URL(report.summary.target.origin).host;
    const spentOnReport = (await creditLedger(db, code.id)).some(
      (entry) => entry.reason === "redeemed" && entry.report_id === report.key,
    );
    const reportLink = reportId ? { label: `Open the report for ${host}`, url: deps.reportUrl(reportId) } : undefined;
    const paragraphs: MailParagraph[] = [
      {
        text: `Thank you. You paid ${formatMoney({ amount: payment.amount, currency: payment.currency })} (payment ${payment.payment_id}).`,
      },
    ];
    paragraphs.push(
      spentOnReport
        ? {
            text: `Your readiness report for ${host} is unlocked, with the evidence, fixes and prompts for every check${reportLink ? ":" : "."}`,
            ...(reportLink ? { link: reportLink } : {}),
          }
        : {
            text: `The report for ${host} was already unlocked when your payment arrived, so nothing was spent on it: the credit is yours to use on any report.`,
            ...(reportLink ? { link: reportLink } : {}),
          },
    );
    if (code.credits_remaining > 0) {
      const left = `${code.credits_remaining} credit${code.credits_remaining === 1 ? "" : "s"}`;
      const storedHash = await creditCodeHash(db, code.id);
      const typed = storedHash ? issuedPaymentCode(deps.secrets, payment_id, storedHash) : null;
      if (typed) {
        paragraphs.push(
          {
            text: `Your credit code has ${left} left (of ${code.credits_total}). One credit unlocks one report: enter the code on a report's page, or send it as {"code": "…"} to POST ${deps.redeemApiUrl("{id}")}.`,
            code: typed,
          },
          { text: "Keep this code private: whoever has it can spend its credits." },
        );
      } else {
        // The key it was issued under was retired before this went out: any code shown now would not redeem.
        paragraphs.push({
          text: `You have ${left} left (of ${code.credits_total}), but your credit code can no longer be shown here. Write to ${deps.contactEmail} with payment ${payment_id} and we will issue a new one.`,
        });
      }
    }
    const subject =
      payment.purchase === "pack"
        ? `Your credit code: ${code.credits_total} report unlocks`
        : `Receipt: readiness report for ${host}`;
    return composeMail(subject, paragraphs, signature);
  };

  return { [CHECK_PAYMENT_MAIL]: receipt };
}
