import { z } from "zod";
import { CALENDAR_DATE_PATTERN, SlugSchema, TimestampSchema, text } from "./common.ts";

/** A documentation path: one to four lower-case segments, e.g. `store/downloads`. */
export const DOC_PATH_PATTERN = "^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*){0,3}$";
export const DocPathSchema = z
  .string()
  .max(200)
  .regex(new RegExp(DOC_PATH_PATTERN), "must be one to four lower-case segments separated by /")
  // `/docs` is the generated docs home; a page called `index` would collide with it.
  .refine((path) => !path.split("/").includes("index"), "must not use the segment index (reserved for /docs)");

/** `<page key>-<YYYY-MM-DD>`, e.g. `errors--problem-types-2026-05-01`. */
export const DocVersionSchema = z
  .string()
  .max(300)
  .regex(
    new RegExp(`^[a-z0-9]+(?:-{1,2}[a-z0-9]+)*-${CALENDAR_DATE_PATTERN}$`),
    "must look like <page key>-YYYY-MM-DD",
  );

/** A page key: the doc path with `/` replaced by `--`, unless the frontmatter names its own. */
export const DocKeySchema = z
  .string()
  .max(200)
  .regex(/^[a-z0-9]+(?:-{1,2}[a-z0-9]+)*$/, "must be lower-case words joined by - or --");

/** Frontmatter of `content/docs/<path>.md`. */
export const DocFrontmatterSchema = z.strictObject({
  /** The page title, shown as its heading and in the sidebar. */
  title: text(1, 120),
  /** One sentence that says what the page is for; used in indexes, llms.txt and meta tags. */
  description: text(1, 300),
  /** When set, the sidebar starts a new heading with this name at this page; `null` continues the current one. */
  section: text(1, 80).nullable(),
  /** Orders the page among its siblings (pages with the same parent path). */
  position: z.int().min(0).max(10_000),
  /** `<page key>-<YYYY-MM-DD>`; the date is the UTC date of `published_at`. */
  version: DocVersionSchema,
  /** When this version was published: ISO 8601 UTC with milliseconds. */
  published_at: TimestampSchema,
  /** Overrides the page key (default: the path with `/` replaced by `--`); keeps versions when a page moves. */
  key: DocKeySchema.optional(),
});
export type DocFrontmatter = z.infer<typeof DocFrontmatterSchema>;

/** Frontmatter of an archived version, `content/archive/docs/<key>/<version>.md`. */
export const ArchivedDocFrontmatterSchema = DocFrontmatterSchema.extend({
  /** The path the page had when this version was current. */
  path: DocPathSchema,
  /** When the next version replaced this one. */
  superseded_at: TimestampSchema,
});
export type ArchivedDocFrontmatter = z.infer<typeof ArchivedDocFrontmatterSchema>;

export const DocVersionRefSchema = z.strictObject({
  version: DocVersionSchema,
  published_at: TimestampSchema,
  superseded_at: TimestampSchema.nullable(),
  /** The JSON of that version. */
  url: z.string(),
});

/** One entry of `GET /api/v1/docs`. */
export const DocIndexEntrySchema = z.strictObject({
  path: DocPathSchema,
  title: z.string(),
  description: z.string(),
  section: z.string().nullable(),
  position: z.int(),
  version: DocVersionSchema,
  published_at: TimestampSchema,
  /** The page for people. */
  url: z.string(),
  /** The page as Markdown. */
  markdown_url: z.string(),
});
export type DocIndexEntry = z.infer<typeof DocIndexEntrySchema>;

export const DocIndexSchema = z.strictObject({ data: z.array(DocIndexEntrySchema) });

/** `GET /api/v1/docs/{path}` and archived versions. */
export const DocPageSchema = DocIndexEntrySchema.extend({
  /** The page's Markdown, without frontmatter. */
  body: z.string(),
  /** Every version, current first. */
  versions: z.array(DocVersionRefSchema),
  /** `null` for the current version; the time it was replaced for an archived one. */
  superseded_at: TimestampSchema.nullable(),
});
export type DocPage = z.infer<typeof DocPageSchema>;

export const DocSlugSchema = SlugSchema;
