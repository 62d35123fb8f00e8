import { z } from "zod";
import { HttpUrlSchema, SlugSchema, TimestampSchema, text } from "./common.ts";

/** How sure we are of a claim: seen ourselves, reasoned from what we saw, suggested, not known, or replaced. */
export const ClaimLabelSchema = z.enum(["observed", "inferred", "proposed", "unknown", "superseded"]);

export const EvidenceSchema = z.strictObject({
  /** What kind of evidence: a measurement, a document, a test run, a conversation… */
  kind: z.enum(["measurement", "document", "test", "observation", "statement", "source-code"]),
  /** What the evidence shows, in a sentence or two. */
  summary: text(1, 1000),
  url: HttpUrlSchema.optional(),
  observed_at: TimestampSchema.optional(),
});

export const ClaimSchema = z.strictObject({
  /** Stable within the record; other claims refer to it by this id. */
  id: SlugSchema,
  statement: text(1, 1000),
  label: ClaimLabelSchema,
  evidence: z.array(EvidenceSchema).max(20),
  /** Required when `label` is `superseded`: the id of the claim that replaced this one. */
  superseded_by: SlugSchema.optional(),
});

/** Frontmatter of `content/records/<slug>.md`. */
export const RecordFrontmatterSchema = z.strictObject({
  title: text(1, 160),
  description: text(1, 300),
  published_at: TimestampSchema,
  updated_at: TimestampSchema.optional(),
  claims: z.array(ClaimSchema).min(1).max(200),
});
export type RecordFrontmatter = z.infer<typeof RecordFrontmatterSchema>;

export const RecordPageSchema = z.strictObject({
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  published_at: TimestampSchema,
  updated_at: TimestampSchema.nullable(),
  claims: z.array(ClaimSchema),
  body: z.string(),
  url: z.string(),
});
export const RecordIndexSchema = z.strictObject({
  data: z.array(RecordPageSchema.omit({ claims: true, body: true }).extend({ claim_count: z.int() })),
});
