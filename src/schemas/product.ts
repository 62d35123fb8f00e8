import { z } from "zod";
import { MoneySchema, SlugSchema, text } from "./common.ts";

/** A private file path, relative to the private files directory; never under `dist/` or `public/`. */
export const PrivateFilePathSchema = z
  .string()
  .max(200)
  // Every segment starts with a letter or digit, so `.` and `..` can never appear.
  .regex(
    /^[a-z0-9][a-z0-9._-]*(?:\/[a-z0-9][a-z0-9._-]*)*$/,
    "must be a relative path of lower-case names, without ..",
  );

/**
 * Which part of the file the product page shows: `lines` lines from the first line containing `from`.
 * The excerpt is read from the real file at build time, so it can never promise what the file lacks.
 */
export const ProductSampleSchema = z.strictObject({
  /** Text that the excerpt's first line contains (the first such line of the file). */
  from: text(1, 200),
  /** How many lines to show. */
  lines: z.int().min(3).max(60),
});

/** Frontmatter of `content/products/<id>.md`; the id is the file name. */
export const ProductFrontmatterSchema = z
  .strictObject({
    title: text(1, 120),
    description: text(1, 300),
    /** The store category id (see `content/store/categories.yaml`). */
    category: SlugSchema,
    /** `item`: a file delivered by download; `fee`: a payment with nothing to download. */
    kind: z.enum(["item", "fee"]),
    /** The only price ever charged: clients never send one. */
    price: MoneySchema,
    /** Whether it can be bought now; a listed item not on sale answers 409 at checkout. */
    on_sale: z.boolean(),
    /** Unpublished products are not listed and answer 404. */
    published: z.boolean().default(true),
    /** Units left to sell; absent means unlimited. */
    stock: z.int().min(0).max(1_000_000).optional(),
    /** For items: the file under the private files directory that buyers download. */
    file: PrivateFilePathSchema.optional(),
    /** The file's media type, e.g. `application/pdf`. */
    file_type: z
      .string()
      .regex(/^[a-z]+\/[a-z0-9.+-]+$/)
      .optional(),
    /** The file's format as a buyer would name it, e.g. `Markdown` or `One JSON file`; required with a file. */
    format: text(1, 80).optional(),
    /**
     * What the file holds (or, for a fee, what the buyer gets), one line each, shown as a list on the
     * product page before purchase; required with a file.
     */
    contents: z.array(text(1, 300)).min(1).max(30).optional(),
    /** An excerpt of the file shown on the product page, so a buyer sees what they pay for. */
    sample: ProductSampleSchema.optional(),
    /** How long downloads stay available after purchase. */
    entitlement_days: z.int().min(1).max(3650),
    /** Position in the category listing. */
    position: z.int().min(0).default(0),
  })
  .superRefine((value, ctx) => {
    if (value.kind === "item" && !value.file) {
      ctx.addIssue({ code: "custom", path: ["file"], message: "an item needs a file to deliver" });
    }
    if (value.kind === "fee" && value.file) {
      ctx.addIssue({ code: "custom", path: ["file"], message: "a fee has no file; make it an item instead" });
    }
    if (value.file && !value.file_type) {
      ctx.addIssue({ code: "custom", path: ["file_type"], message: "a file needs its media type" });
    }
    if (value.file && !value.format) {
      ctx.addIssue({ code: "custom", path: ["format"], message: "a file needs its format, as a buyer names it" });
    }
    if (value.file && !value.contents) {
      ctx.addIssue({ code: "custom", path: ["contents"], message: "a file needs its contents listed for buyers" });
    }
    if (value.sample && !value.file) {
      ctx.addIssue({ code: "custom", path: ["sample"], message: "only a file can have a sample" });
    }
  });
export type ProductFrontmatter = z.infer<typeof ProductFrontmatterSchema>;

/** `content/store/categories.yaml`. */
export const CategorySchema = z.strictObject({
  id: SlugSchema,
  title: text(1, 80),
  description: text(1, 300),
  position: z.int().min(0),
});
export const CategoriesFileSchema = z.strictObject({ categories: z.array(CategorySchema).min(1).max(100) });
export type Category = z.infer<typeof CategorySchema>;

/** A product as the public API shows it (no private file path). */
export const PublicProductSchema = z.strictObject({
  id: SlugSchema,
  title: z.string(),
  description: z.string(),
  category: SlugSchema,
  kind: z.enum(["item", "fee"]),
  price: MoneySchema,
  on_sale: z.boolean(),
  /** `null` when stock is not limited. Static listings show the stock at build time; checkout is authoritative. */
  stock: z.int().nullable(),
  has_file: z.boolean(),
  file_type: z.string().nullable(),
  entitlement_days: z.int(),
  checkout_url: z.string(),
  url: z.string(),
});
export type PublicProduct = z.infer<typeof PublicProductSchema>;
export const ProductIndexSchema = z.strictObject({ data: z.array(PublicProductSchema) });
export const CategoryIndexSchema = z.strictObject({
  data: z.array(CategorySchema.extend({ product_count: z.int() })),
});
