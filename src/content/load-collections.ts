import { join } from "node:path";
import type { z } from "zod";
import { ArticleFrontmatterSchema } from "../schemas/article.ts";
import { SlugSchema } from "../schemas/common.ts";
import { RecordFrontmatterSchema, type RecordFrontmatter } from "../schemas/record.ts";
import { ResourceFrontmatterSchema } from "../schemas/resource.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownDir } from "./load-entries.ts";
import type { SlugEntry } from "./model.ts";

function loadSlugged<S extends z.ZodType>(
  root: string,
  dir: string,
  schema: S,
  issues: ContentIssue[],
): SlugEntry<z.output<S>>[] {
  const entries: SlugEntry<z.output<S>>[] = [];
  for (const entry of loadMarkdownDir(root, dir, schema, issues)) {
    if (!SlugSchema.safeParse(entry.name).success) {
      issues.push({ file: entry.file, field: "(file)", message: "its name must be a slug (lower-case words joined by hyphens)" });
      continue;
    }
    entries.push({ file: entry.file, data: entry.data, body: entry.body, slug: entry.name });
  }
  return entries;
}

export function loadArticles(root: string, contentDir: string, issues: ContentIssue[]) {
  return loadSlugged(root, join(contentDir, "articles"), ArticleFrontmatterSchema, issues).sort((a, b) =>
    b.data.published_at.localeCompare(a.data.published_at),
  );
}

export function loadResources(root: string, contentDir: string, issues: ContentIssue[]) {
  return loadSlugged(root, join(contentDir, "resources"), ResourceFrontmatterSchema, issues).sort((a, b) =>
    a.data.title.localeCompare(b.data.title),
  );
}

export function loadRecords(root: string, contentDir: string, issues: ContentIssue[]) {
  const records = loadSlugged(root, join(contentDir, "records"), RecordFrontmatterSchema, issues);
  for (const record of records) checkClaims(record.file, record.data, issues);
  return records.sort((a, b) => a.slug.localeCompare(b.slug));
}

/** Claim ids are unique, and a claim is superseded exactly when it names the claim that replaced it. */
function checkClaims(file: string, record: RecordFrontmatter, issues: ContentIssue[]): void {
  const ids = new Set<string>();
  record.claims.forEach((claim, index) => {
    if (ids.has(claim.id)) issues.push({ file, field: `claims.${index}.id`, message: `${claim.id} is used twice` });
    ids.add(claim.id);
  });
  record.claims.forEach((claim, index) => {
    if (claim.label === "superseded" && !claim.superseded_by) {
      issues.push({ file, field: `claims.${index}.superseded_by`, message: "a superseded claim must name the claim that replaced it" });
    } else if (claim.label !== "superseded" && claim.superseded_by) {
      issues.push({ file, field: `claims.${index}.superseded_by`, message: "only a superseded claim names a replacement" });
    } else if (claim.superseded_by && (!ids.has(claim.superseded_by) || claim.superseded_by === claim.id)) {
      issues.push({ file, field: `claims.${index}.superseded_by`, message: `names ${claim.superseded_by}, which is not another claim in this record` });
    }
    if (claim.label === "observed" && claim.evidence.length === 0) {
      issues.push({ file, field: `claims.${index}.evidence`, message: "an observed claim needs at least one piece of evidence" });
    }
  });
}
