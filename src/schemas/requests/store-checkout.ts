import { z } from "zod";
import { EmailSchema } from "../common.ts";

/** `POST /api/v1/store/{id}/checkout` (optional body). Prices never come from the client. */
export const StoreCheckoutSchema = z
  .strictObject({
    /** Where the delivery e-mail goes; the hosted checkout asks for one when absent. */
    email: EmailSchema.optional(),
    /** Units to buy; items with a file are bought one at a time. */
    quantity: z.int().min(1).max(10).optional(),
  })
  .meta({ title: "Store checkout" });
export type StoreCheckout = z.infer<typeof StoreCheckoutSchema>;
