import { z } from "zod";
import { DateSchema, HttpUrlSchema, SlugSchema, text } from "./common.ts";

export const ResourceKindSchema = z.enum(["agent", "service", "software", "guide", "directory"]);

/** How we assessed a resource before recommending it. */
export const AssessmentSchema = z.strictObject({
  /** What we did: e.g. "ran it against three sites", "read the source", "used it for a month". */
  method: text(1, 500),
  /** When. */
  date: DateSchema,
  /** What we found, including the limits. */
  result: text(1, 1000),
});

/** Frontmatter of `content/resources/<slug>.md`. */
export const ResourceFrontmatterSchema = z.strictObject({
  title: text(1, 160),
  description: text(1, 300),
  kind: ResourceKindSchema,
  url: HttpUrlSchema,
  assessment: AssessmentSchema,
  tags: z.array(SlugSchema).max(10).default([]),
});
export type ResourceFrontmatter = z.infer<typeof ResourceFrontmatterSchema>;

export const ResourceEntrySchema = ResourceFrontmatterSchema.extend({ slug: SlugSchema, body: z.string() });
export const ResourceIndexSchema = z.strictObject({ data: z.array(ResourceEntrySchema) });
