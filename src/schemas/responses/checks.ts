import { z } from "zod";
import { MoneySchema, TimestampSchema } from "../common.ts";
import { CheckDetailSchema, ReadinessSummaryShape } from "../report.ts";

/** How to unlock a locked report: pay for it, or buy a pack (one credit unlocks it), or redeem a code. */
export const UnlockOffersSchema = z.strictObject({
  price: MoneySchema,
  packs: z.array(z.strictObject({ id: z.string(), title: z.string(), credits: z.int(), price: MoneySchema })),
  /** POST `{purchase, pack?, email}` here for a payment client secret; `null` while payments are unavailable. */
  checkout: z.string().nullable(),
  /** POST `{code}` here to spend one credit; `null` while credit codes are switched off. */
  redeem: z.string().nullable(),
});

/** `POST /api/v1/checks` and `GET /api/v1/checks/{id}`: a report, locked (summary) or unlocked (with details). */
export const CheckReportSchema = z.strictObject({
  id: z.uuid(),
  /** The report page for people; the id in it is the capability to read the report. */
  url: z.string(),
  locked: z.boolean(),
  unlocked_at: TimestampSchema.nullable(),
  ...ReadinessSummaryShape,
  /** Evidence, remediation and fix prompts per check: only once unlocked. */
  details: z.array(CheckDetailSchema).optional(),
  unlock: UnlockOffersSchema.nullable(),
});
export type CheckReport = z.infer<typeof CheckReportSchema>;

/** `POST /api/v1/checks/{id}/redeem`. */
export const RedeemResultSchema = z.strictObject({
  id: z.uuid(),
  unlocked: z.literal(true),
  credits_remaining: z.int().min(0),
});

/** `POST /api/v1/checks/{id}/checkout`: confirm the payment with this client secret (Stripe.js); never stored or logged. */
export const CheckCheckoutResultSchema = z.strictObject({
  client_secret: z.string(),
  amount: z.int(),
  currency: z.string(),
  purchase: z.enum(["unlock", "pack"]),
  pack: z.string().nullable(),
  credits: z.int().nullable(),
});
export type CheckCheckoutResult = z.infer<typeof CheckCheckoutResultSchema>;
