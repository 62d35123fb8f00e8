import { z } from "zod";
import { EmailSchema, SlugSchema, text } from "../common.ts";

export const CheckProfileSchema = z.enum(["content", "docs", "api", "agent", "commerce"]);
export type CheckProfile = z.infer<typeof CheckProfileSchema>;

/** `POST /api/v1/checks`. */
export const CheckInputSchema = z
  .strictObject({
    /** A hostname (`example.com`, IDN allowed), checked over https; or a URL, whose origin is checked. */
    domain: text(1, 2048),
    /** Overrides the inferred profile: one profile or several. */
    profile: z.union([CheckProfileSchema, z.array(CheckProfileSchema).min(1).max(5)]).optional(),
  })
  .meta({ title: "Readiness check input" });
export type CheckInput = z.infer<typeof CheckInputSchema>;

/** `POST /api/v1/checks/{id}/checkout`: pay to unlock this report, or buy a pack (one credit unlocks this report). */
export const CheckCheckoutSchema = z
  .discriminatedUnion("purchase", [
    z.strictObject({ purchase: z.literal("unlock"), email: EmailSchema }),
    z.strictObject({ purchase: z.literal("pack"), pack: SlugSchema, email: EmailSchema }),
  ])
  .meta({ title: "Readiness report checkout" });
export type CheckCheckout = z.infer<typeof CheckCheckoutSchema>;

/** `POST /api/v1/checks/{id}/redeem`. */
export const CheckRedeemSchema = z
  .strictObject({
    /** A credit code, e.g. `7K2QD-M4X9T-P0RVA-8HC3E-J` (hyphens and case do not matter). */
    code: z.string().min(1).max(64),
  })
  .meta({ title: "Credit code redemption" });
export type CheckRedeem = z.infer<typeof CheckRedeemSchema>;
