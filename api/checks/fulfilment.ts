import { randomUUID } from "node:crypto";
import type { Sql, SqlStatement } from "../db/sql.ts";
import { queueMailStatement, SEALED } from "../mail/outbox-sql.ts";
import type { PaymentsGateway } from "../payments/stripe-client.ts";
import { type CheckMetadata, CheckMetadataSchema, type PaymentIntent } from "../payments/stripe-objects.ts";
import { randomBase62 } from "../platform/auth/agent-token.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { deriveCreditCode, hashCreditCode, normaliseCreditCode } from "./credit-codes.ts";
import { creditCodeStatements, revokeCreditCodeStatements, spendCreditStatements } from "./sql/credits.ts";
import { checkPaymentSucceededStatement } from "./sql/payments.ts";

export interface CheckFulfilmentDeps {
  db: () => Sql;
  now: () => Date;
  payments: PaymentsGateway | null;
  /**
   * The ring's current key: a payment's code is derived and hashed under it. A replay after a
   * rotation derives another code, but the payment's code id is taken, so nothing changes.
   */
  serverSecret: string;
  /** The payment's report is stored under its id's keyed hash; the receipt's link to it is sealed until sent. */
  keys: LookupKeys;
}

/**
 * A receipt's outbox payload: the payment, and the report's id (its link) sealed under `SEALED`
 * until the message is sent.
 */
export const receiptPayload = (paymentId: string, sealedReport: string) => ({
  payment_id: paymentId,
  [SEALED]: { report: sealedReport },
});

/** The credit code a payment bought: one per payment, so its id is the payment's. */
export const paymentCodeId = (paymentId: string) => `cc_${paymentId}`;
export const CHECK_PAYMENT_MAIL = "check-payment";

/** Our metadata on a payment, or `null` when the payment is not a report unlock or pack. */
export function checkMetadataOf(intent: Pick<PaymentIntent, "metadata">): CheckMetadata | null {
  const parsed = CheckMetadataSchema.safeParse(intent.metadata);
  return parsed.success ? parsed.data : null;
}

/**
 * One idempotent fulfilment for every paid report purchase, whether the webhook or the buyer's
 * return from the hosted page reports it first. Every payment becomes a credit code (1 credit for
 * an unlock, the pack's size for a pack) whose first credit is spent on the report in the same
 * batch. So a payment is never lost: if the report was unlocked meanwhile, the credit stays on the
 * code and the e-mail says so. The code is derived from the payment (`deriveCreditCode`), so a
 * replay finds it already there and changes nothing.
 */
export class CheckFulfilment {
  private readonly deps: CheckFulfilmentDeps;

  constructor(deps: CheckFulfilmentDeps) {
    this.deps = deps;
  }

  /** The statements that fulfil this payment; `null` if it is not ours, none until it has succeeded. */
  plan(intent: PaymentIntent): SqlStatement[] | null {
    const metadata = checkMetadataOf(intent);
    if (!metadata) return null;
    if (intent.status !== "succeeded") return [];
    const code = normaliseCreditCode(deriveCreditCode(this.deps.serverSecret, intent.id));
    if (!code.ok) throw new Error("derived an invalid credit code");
    const codeHash = hashCreditCode(this.deps.serverSecret, code.normalised);
    const at = this.deps.now().toISOString();
    const credits = Number(metadata.credits);
    const reportKey = this.deps.keys.hash("report", metadata.report_id);
    return [
      checkPaymentSucceededStatement(
        {
          payment_id: intent.id,
          report_id: reportKey,
          purchase: metadata.purchase,
          pack_id: metadata.pack_id || null,
          credits,
          email: metadata.email,
          amount: intent.amount,
          currency: intent.currency,
        },
        at,
      ),
      ...creditCodeStatements({
        id: paymentCodeId(intent.id),
        codeHash,
        hint: code.normalised.slice(-4),
        credits,
        source: "payment",
        sourceRef: intent.id,
        email: metadata.email,
        at,
      }),
      ...spendCreditStatements(codeHash, reportKey, at, randomUUID(), { source: "payment", ref: intent.id }),
      queueMailStatement(
        {
          id: `mail_${randomBase62(20)}`,
          kind: CHECK_PAYMENT_MAIL,
          dedupe_key: `check-payment:${intent.id}`,
          recipient: metadata.email,
          payload: receiptPayload(intent.id, this.deps.keys.seal(metadata.report_id)),
        },
        at,
      ),
    ];
  }

  /** Re-reads the payment from the provider (an event may be stale or replayed) and plans its fulfilment. */
  async planFromProvider(paymentIntentId: string): Promise<SqlStatement[] | null> {
    const intent = await this.#gateway().retrievePaymentIntent(paymentIntentId);
    return intent ? this.plan(intent) : null;
  }

  /** A hosted checkout for `reportId`: fulfilled now if the provider says it was paid. */
  async fulfilSession(sessionId: string, reportId: string): Promise<"paid" | "pending" | "unknown"> {
    const payments = this.#gateway();
    const session = await payments.retrieveCheckoutSession(sessionId);
    const metadata = session ? CheckMetadataSchema.safeParse(session.metadata) : null;
    if (!session || !metadata?.success || metadata.data.report_id !== reportId) return "unknown";
    if (session.payment_status !== "paid" || !session.payment_intent) return "pending";
    const statements = await this.planFromProvider(session.payment_intent);
    if (!statements || statements.length === 0) return "pending";
    await this.deps.db().batch(statements, "write");
    return "paid";
  }

  /**
   * A refunded or disputed purchase (refund policy, "Report unlocks" and "Credit packs"): its code
   * stops working, with the unspent credits leaving through the ledger; a report unlocked by a
   * single-unlock payment returns to its free summary. A pack's report stays unlocked: the pack's
   * refund covers the unused credits only.
   */
  revocation(paymentIntentId: string): SqlStatement[] {
    return [
      ...revokeCreditCodeStatements(paymentCodeId(paymentIntentId), this.deps.now().toISOString()),
      {
        sql: `UPDATE check_reports SET unlocked_at = NULL, unlock_source = NULL, unlock_ref = NULL
              WHERE unlock_source = 'payment' AND unlock_ref = ?
                AND EXISTS (SELECT 1 FROM check_payments WHERE payment_id = ? AND purchase = 'unlock')`,
        args: [paymentIntentId, paymentIntentId],
      },
    ];
  }

  #gateway(): PaymentsGateway {
    if (!this.deps.payments) throw new Error("payments are not configured");
    return this.deps.payments;
  }
}
