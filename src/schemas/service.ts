import { z } from "zod";
import { EmailSchema, MoneySchema, SlugSchema, text } from "./common.ts";

/** `content/service.yaml`: who we are and what is published. */
export const ServiceSettingsSchema = z.strictObject({
  name: text(1, 80),
  /** Reverse-DNS style id used in machine-readable cards, e.g. `dev.agentready/service`. */
  identifier: z.string().regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, "must look like com.example/name"),
  /** Semantic version of the public API surface. */
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "must be a semantic version like 1.2.0"),
  tagline: text(1, 120),
  /** At most 100 characters, where a spec caps descriptions that short (the MCP server card); defaults to the tagline, shortened. */
  short_description: text(1, 100).optional(),
  description: text(1, 600),
  contact: z.strictObject({ email: EmailSchema, security: EmailSchema }),
  /** What the build publishes; switched-off things answer 404. */
  publish: z.strictObject({
    resources: z.boolean(),
    agent_skills: z.boolean(),
    mcp_server: z.boolean(),
    mcp_server_card: z.boolean(),
  }),
});
export type ServiceSettings = z.infer<typeof ServiceSettingsSchema>;

/** `content/pricing.yaml`: report unlocks, credit packs and monitoring; store prices live with each product. */
export const PricingFileSchema = z.strictObject({
  checks: z.strictObject({
    /** Free checks a client may run per day (the summary is always free). */
    free_checks_per_day: z.int().min(0).max(10_000),
    /** Price to unlock one full report. */
    unlock: MoneySchema,
    /** Prepaid packs of credits; one credit unlocks one report. */
    packs: z
      .array(
        z.strictObject({ id: SlugSchema, title: text(1, 80), credits: z.int().min(1).max(10_000), price: MoneySchema }),
      )
      .max(10),
  }),
  monitors: z.strictObject({
    /** Sites one e-mail address, or one agent registration, may watch on the free plan. */
    free_sites: z.int().min(0).max(1_000),
  }),
});
export type PricingFile = z.infer<typeof PricingFileSchema>;
