import type { ArchivedDocFrontmatter, DocFrontmatter } from "../schemas/doc.ts";
import type { ArticleFrontmatter } from "../schemas/article.ts";
import type { PolicyFrontmatter } from "../schemas/policy.ts";
import type { Category, ProductFrontmatter } from "../schemas/product.ts";
import type { RecordFrontmatter } from "../schemas/record.ts";
import type { ResourceFrontmatter } from "../schemas/resource.ts";
import type { RoadmapFile } from "../schemas/roadmap.ts";
import type { PricingFile, ServiceSettings } from "../schemas/service.ts";
import type { SkillFrontmatter } from "../schemas/skill.ts";
import type { SurveyFile } from "../schemas/survey.ts";

/** A Markdown file with validated frontmatter. */
export interface Entry<T> {
  /** Project-relative file path, for messages. */
  file: string;
  data: T;
  body: string;
}

export interface ArchivedVersion<T> extends Entry<T & { superseded_at: string }> {}

export interface DocEntry extends Entry<DocFrontmatter> {
  path: string;
  key: string;
  /** Superseded versions kept on record, newest first. */
  archive: ArchivedVersion<ArchivedDocFrontmatter>[];
}

export interface PolicyEntry extends Entry<PolicyFrontmatter> {
  slug: string;
  key: string;
  archive: ArchivedVersion<PolicyFrontmatter>[];
}

export interface SlugEntry<T> extends Entry<T> {
  slug: string;
}

export interface ProductEntry extends Entry<ProductFrontmatter> {
  id: string;
  /** The file buyers download, as read when the content was loaded; `null` for a fee. */
  download: ProductDownload | null;
}

export interface ProductDownload {
  bytes: number;
  /** The excerpt the product page shows (the frontmatter's `sample`), or `null` without one. */
  sample: { text: string; firstLine: number; lastLine: number } | null;
}

export interface SkillEntry extends Entry<SkillFrontmatter> {
  slug: string;
  /** The SKILL.md file exactly as committed; its digest is published and must match what is served. */
  raw: Buffer;
}

export interface Content {
  root: string;
  service: ServiceSettings;
  pricing: PricingFile;
  docs: DocEntry[];
  policies: PolicyEntry[];
  articles: SlugEntry<ArticleFrontmatter>[];
  records: SlugEntry<RecordFrontmatter>[];
  resources: SlugEntry<ResourceFrontmatter>[];
  categories: Category[];
  products: ProductEntry[];
  skills: SkillEntry[];
  survey: SurveyFile;
  roadmap: RoadmapFile;
  /** Where item files live (absolute); never copied into the build. */
  privateFilesDir: string;
}
