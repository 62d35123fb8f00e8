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
    /**
     * Also render the homepage, a path that cannot exist and one linked page in a browser (Chromium, through the
     * scanner's guard), for the rendered checks: what agents that do not run JavaScript miss, WebMCP tools registered
     * at runtime, the accessibility tree, layout shift. Takes a few seconds more; without it those checks are n/a.
     */
    render: z.boolean().optional(),
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

/**
 * What a credit code may look like as typed: 20 symbols of Crockford Base32 (no U; I and L read as
 * 1, O as 0; any case) and a check symbol (which may also be `*`, `~`, `$`, `=` or `U`), with
 * hyphens and spaces anywhere. Whether the check symbol matches is the server's next question.
 */
export const CREDIT_CODE_PATTERN = "^[\\s-]*(?:[0-9A-TV-Za-tv-z][\\s-]*){20}[0-9A-Za-z*~$=][\\s-]*$";
export const CREDIT_CODE_SHAPE =
  "a credit code has 20 characters and a check character, like XXXXX-XXXXX-XXXXX-XXXXX-C";

/** `POST /api/v1/checks/{id}/redeem`. */
export const CheckRedeemSchema = z
  .strictObject({
    /** A credit code, e.g. `7K2QD-M4X9T-P0RVA-8HC3E-J` (hyphens, spaces and case do not matter). */
    code: z.string().max(64, "must be at most 64 characters").regex(new RegExp(CREDIT_CODE_PATTERN), CREDIT_CODE_SHAPE),
  })
  .meta({ title: "Credit code redemption" });
export type CheckRedeem = z.infer<typeof CheckRedeemSchema>;
