import { z } from "zod";

/**
 * The parts of the payment provider's objects this service reads, parsed with zod at the boundary
 * (API answers and webhook payloads alike). Unknown fields pass through untouched and unread.
 * Field meanings: https://docs.stripe.com/api/checkout/sessions/object and siblings.
 */

const Metadata = z
  .record(z.string(), z.string())
  .nullish()
  .transform((value) => value ?? {});
/** An expandable reference: the id, or the expanded object carrying it. */
const Reference = z
  .union([z.string(), z.object({ id: z.string() })])
  .nullish()
  .transform((value) => (value === null || value === undefined ? null : typeof value === "string" ? value : value.id));

export const CheckoutSessionSchema = z.object({
  id: z.string().regex(/^cs_(test|live)_[A-Za-z0-9]+$/),
  object: z.literal("checkout.session"),
  /** `open`, `complete` or `expired`. */
  status: z.enum(["open", "complete", "expired"]).nullable(),
  /** `paid`, `unpaid` or `no_payment_required`: the only signal that fulfilment is due. */
  payment_status: z.enum(["paid", "unpaid", "no_payment_required"]),
  url: z.string().nullable().optional(),
  expires_at: z.number().int(),
  amount_total: z.number().int().nullable().optional(),
  currency: z.string().nullable().optional(),
  client_reference_id: z.string().nullable().optional(),
  customer_email: z.string().nullable().optional(),
  customer_details: z.object({ email: z.string().nullable().optional() }).nullable().optional(),
  metadata: Metadata,
  payment_intent: Reference,
  line_items: z.object({ data: z.array(z.object({ quantity: z.number().int().nullable().optional() })) }).nullish(),
});
export type CheckoutSession = z.infer<typeof CheckoutSessionSchema>;

export const PaymentIntentSchema = z.object({
  id: z.string().startsWith("pi_"),
  object: z.literal("payment_intent"),
  status: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  metadata: Metadata,
  client_secret: z.string().nullable().optional(),
  latest_charge: Reference,
});
export type PaymentIntent = z.infer<typeof PaymentIntentSchema>;

export const ChargeSchema = z.object({
  id: z.string().startsWith("ch_"),
  object: z.literal("charge"),
  payment_intent: Reference,
  refunded: z.boolean().optional(),
  amount_refunded: z.number().int().optional(),
  /** The provider's receipt page for this charge (kept current with refunds). */
  receipt_url: z.string().nullable().optional(),
  metadata: Metadata,
});
export type Charge = z.infer<typeof ChargeSchema>;

/** A payment intent read with `expand: ["latest_charge"]`: the charge itself, when there is one. */
export const PaymentWithChargeSchema = z.object({
  id: z.string().startsWith("pi_"),
  object: z.literal("payment_intent"),
  latest_charge: z.union([ChargeSchema, z.string()]).nullish(),
});

export const DisputeSchema = z.object({
  id: z.string().startsWith("dp_"),
  object: z.literal("dispute"),
  charge: Reference,
  payment_intent: Reference,
});
export type Dispute = z.infer<typeof DisputeSchema>;

export const RefundSchema = z.object({
  id: z.string().startsWith("re_"),
  object: z.literal("refund"),
  status: z.string().nullable().optional(),
  amount: z.number().int(),
});
export type Refund = z.infer<typeof RefundSchema>;

/** The envelope of every webhook event; `data.object` is parsed by the handler for its type. */
export const PaymentEventSchema = z.object({
  id: z.string().startsWith("evt_"),
  object: z.literal("event"),
  type: z.string().min(1),
  created: z.number().int(),
  livemode: z.boolean().optional(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type PaymentEvent = z.infer<typeof PaymentEventSchema>;

/** What our checkout sessions and payment intents carry in `metadata`, to find the order again. */
export const StoreMetadataSchema = z.object({
  purpose: z.literal("store"),
  order_id: z.string().regex(/^ord_[A-Za-z0-9]+$/),
  product_id: z.string().min(1),
});
export type StoreMetadata = z.infer<typeof StoreMetadataSchema>;

/** What report unlocks and credit packs carry in `metadata` (on the payment intent, and on a hosted session). */
export const CheckMetadataSchema = z.object({
  purpose: z.literal("check"),
  report_id: z.uuid(),
  purchase: z.enum(["unlock", "pack"]),
  /** The pack's id; empty for an unlock. */
  pack_id: z.string().max(64).default(""),
  /** Credits bought: 1 for an unlock (spent on the report at once), the pack's size for a pack. */
  credits: z.string().regex(/^[1-9][0-9]{0,4}$/),
  email: z.string().min(3).max(320),
});
export type CheckMetadata = z.infer<typeof CheckMetadataSchema>;
