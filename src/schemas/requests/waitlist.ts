import { z } from "zod";
import { boundedArray, EmailSchema, LegendVersionSchema, PrivacyVersionSchema, text } from "../common.ts";

/** `POST /api/v1/waitlist`: a person joining the waiting list. */
export const WaitlistSignupSchema = z
  .strictObject({
    name: text(1, 200).optional(),
    email: EmailSchema,
    interests: boundedArray(text(1, 100), 0, 10, "interests").optional(),
    /** Must be `true`: joining means agreeing to the privacy policy named by `consent_version`. */
    consent: z.literal(true, "must be true: joining the list needs your consent"),
    /** The current privacy policy's `version`. */
    consent_version: PrivacyVersionSchema,
    /** The current legend terms' `version`; send it to accept them and become a legend. */
    legend_terms_version: LegendVersionSchema.optional(),
  })
  .meta({ title: "People's waiting-list signup" });
export type WaitlistSignup = z.infer<typeof WaitlistSignupSchema>;
