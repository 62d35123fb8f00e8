import { z } from "zod";
import { CALENDAR_DATE_PATTERN, DateSchema, SlugSchema, TimestampSchema, text } from "./common.ts";

/** Where a policy applies; forms and pages show the policies placed on them. */
export const PlacementSchema = z.enum(["waitlist", "agent-waitlist", "agent-register", "checkout", "checks", "footer"]);

/** Frontmatter of `content/policies/<slug>.md`. */
export const PolicyFrontmatterSchema = z.strictObject({
  title: text(1, 120),
  /** One sentence: what the policy covers. */
  description: text(1, 300),
  /** Version prefix; defaults to the slug (`privacy`, `legend` for the legend terms). */
  key: SlugSchema.optional(),
  /** `<key>-YYYY-MM-DD`, with an optional `.N` same-day revision for the privacy policy. */
  version: z
    .string()
    .regex(new RegExp(`^[a-z0-9-]+-${CALENDAR_DATE_PATTERN}(?:\\.\\d+)?$`), "must look like <key>-YYYY-MM-DD"),
  /** The date the policy takes effect. */
  effective_at: DateSchema,
  /** When this version was published: ISO 8601 UTC with milliseconds. */
  published_at: TimestampSchema,
  /** Where the policy is shown and agreed to. */
  placements: z.array(PlacementSchema).max(10),
});
export type PolicyFrontmatter = z.infer<typeof PolicyFrontmatterSchema>;

export const ArchivedPolicyFrontmatterSchema = PolicyFrontmatterSchema.extend({ superseded_at: TimestampSchema });

export const PolicyVersionRefSchema = z.strictObject({
  version: z.string(),
  published_at: TimestampSchema,
  superseded_at: TimestampSchema.nullable(),
  url: z.string(),
});

export const PolicySummarySchema = z.strictObject({
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  version: z.string(),
  effective_at: DateSchema,
  published_at: TimestampSchema,
  placements: z.array(PlacementSchema),
  url: z.string(),
  markdown_url: z.string(),
});
export const PolicyIndexSchema = z.strictObject({ data: z.array(PolicySummarySchema) });
export const PolicyPageSchema = PolicySummarySchema.extend({
  body: z.string(),
  versions: z.array(PolicyVersionRefSchema),
  superseded_at: TimestampSchema.nullable(),
});
