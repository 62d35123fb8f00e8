import { z } from "zod";
import { MoneySchema, SlugSchema, TimestampSchema } from "../common.ts";

const SessionIdSchema = z.string().regex(/^cs_(test|live)_[A-Za-z0-9]+$/);

/** `201` from `POST /api/v1/store/{id}/checkout`: where to pay, and the id to follow the purchase by. */
export const CheckoutStartedSchema = z
  .strictObject({
    /** The checkout session id: the purchase's credential. Keep it private. */
    id: SessionIdSchema,
    /** The hosted checkout page to send the buyer to. */
    url: z.string(),
    /** After this the session can no longer be paid. */
    expires_at: TimestampSchema,
  })
  .meta({ title: "Checkout started" });
export type CheckoutStarted = z.infer<typeof CheckoutStartedSchema>;

/** Delivery states; content/docs/store.md explains each and its transitions. */
export const DeliveryStateSchema = z.enum(["pending", "fulfilled", "failed", "expired", "revoked", "refunded"]);

/** `GET /api/v1/store/sessions/{session_id}`: what became of a purchase. */
export const PurchaseSessionSchema = z
  .strictObject({
    id: SessionIdSchema,
    /** The payment provider's session status. */
    status: z.enum(["open", "complete", "expired"]),
    /** The payment provider's payment status. */
    payment_status: z.enum(["paid", "unpaid", "no_payment_required"]),
    items: z.array(
      z.strictObject({
        product_id: SlugSchema,
        title: z.string(),
        kind: z.enum(["item", "fee"]),
        quantity: z.int().min(1),
      }),
    ),
    /** What was charged (or is to be), from the catalogue. */
    total: MoneySchema,
    delivery: z.strictObject({ state: DeliveryStateSchema }),
    entitlement: z.strictObject({
      /** Whether downloads work now. */
      active: z.boolean(),
      /** When the entitlement ends (or ended); `null` before fulfilment or when none was granted. */
      expires_at: TimestampSchema.nullable(),
    }),
    /** Present only while there is a file to download and the entitlement is active. */
    download_url: z.string().optional(),
  })
  .meta({ title: "Purchase session" });
export type PurchaseSession = z.infer<typeof PurchaseSessionSchema>;
