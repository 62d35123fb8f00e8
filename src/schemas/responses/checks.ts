import { z } from "zod";
import { MoneySchema, TimestampSchema } from "../common.ts";
import { CheckDetailSchema, ReadinessSummaryShape } from "../report.ts";
import { AgentMonitorInputSchema } from "../requests/monitors.ts";

/** How to unlock a locked report: pay for it, or buy a pack (one credit unlocks it), or redeem a code. */
export const UnlockOffersSchema = z.strictObject({
  price: MoneySchema,
  packs: z.array(z.strictObject({ id: z.string(), title: z.string(), credits: z.int(), price: MoneySchema })),
  /** POST `{purchase, pack?, email}` here for a payment client secret; `null` while payments are unavailable. */
  checkout: z.string().nullable(),
  /** POST `{code}` here to spend one credit; `null` while credit codes are switched off. */
  redeem: z.string().nullable(),
});

/**
 * How to watch the report's site: the monitor form for people, prefilled; for agents, the monitor create request
 * (`POST /api/v1/agents/monitors`, scope monitors:write) and the same call as the MCP tool `create_monitor`, each with
 * the same body. `available: false` with the reason when monitors would refuse the site or are paused.
 */
export const WatchOfferSchema = z.discriminatedUnion("available", [
  z.strictObject({
    available: z.literal(true),
    /** The site a monitor would watch: a host (checked over https), or an allow-listed origin as given. */
    domain: z.string(),
    /** The monitor form with the site filled in. */
    form: z.url(),
    request: z.strictObject({
      method: z.literal("POST"),
      url: z.url(),
      /** Send an agent token with this scope as `Authorization: Bearer <token>`. */
      scope: z.literal("monitors:write"),
      body: AgentMonitorInputSchema,
    }),
    tool: z.strictObject({ name: z.literal("create_monitor"), arguments: AgentMonitorInputSchema }),
  }),
  z.strictObject({
    available: z.literal(false),
    /** Why the site cannot be watched now, in one sentence. */
    reason: z.string(),
  }),
]);
export type WatchOffer = z.infer<typeof WatchOfferSchema>;

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
  watch: WatchOfferSchema,
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
