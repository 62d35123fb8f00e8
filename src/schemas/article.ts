import { z } from "zod";
import { SlugSchema, TimestampSchema, text } from "./common.ts";

/** Frontmatter of `content/articles/<slug>.md`. */
export const ArticleFrontmatterSchema = z.strictObject({
  title: text(1, 160),
  description: text(1, 300),
  /** Who wrote it, as shown on the page. */
  author: text(1, 120),
  published_at: TimestampSchema,
  /** Set when the article was revised after publication. */
  updated_at: TimestampSchema.optional(),
  tags: z.array(SlugSchema).max(10).default([]),
});
export type ArticleFrontmatter = z.infer<typeof ArticleFrontmatterSchema>;

export const ArticleSummarySchema = z.strictObject({
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  author: z.string(),
  published_at: TimestampSchema,
  updated_at: TimestampSchema.nullable(),
  tags: z.array(z.string()),
  url: z.string(),
});
export const ArticleIndexSchema = z.strictObject({ data: z.array(ArticleSummarySchema) });
export const ArticlePageSchema = ArticleSummarySchema.extend({ body: z.string() });
