import { join } from "node:path";
import { ArchivedPolicyFrontmatterSchema, PolicyFrontmatterSchema } from "../schemas/policy.ts";
import { SlugSchema } from "../schemas/common.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownDir } from "./load-entries.ts";
import { checkHistory, checkVersionName, loadArchive } from "./load-versioned.ts";
import type { PolicyEntry } from "./model.ts";

/** The privacy policy's key: its version is what forms send as `consent_version`. */
export const PRIVACY_KEY = "privacy";
/** The legend terms' key: `legend-YYYY-MM-DD` versions. */
export const LEGEND_KEY = "legend";

export function loadPolicies(root: string, contentDir: string, issues: ContentIssue[]): PolicyEntry[] {
  const entries = loadMarkdownDir(root, join(contentDir, "policies"), PolicyFrontmatterSchema, issues);
  // Archived policies are filed by key (`archive/policies/<key>/<version>.md`), like docs.
  const archive = loadArchive(root, join(contentDir, "archive", "policies"), ArchivedPolicyFrontmatterSchema, issues, true);
  const policies: PolicyEntry[] = [];
  for (const entry of entries) {
    if (!SlugSchema.safeParse(entry.name).success) {
      issues.push({ file: entry.file, field: "(file)", message: "its name must be a slug (lower-case words joined by hyphens)" });
      continue;
    }
    const key = entry.data.key ?? entry.name;
    checkVersionName(entry.file, key, entry.data, issues, key === PRIVACY_KEY);
    const history = archive.get(key) ?? [];
    checkHistory(entry, history, issues);
    policies.push({ ...entry, slug: entry.name, key, archive: history });
  }
  for (const required of [PRIVACY_KEY, LEGEND_KEY]) {
    if (entries.length > 0 && !policies.some((policy) => policy.key === required)) {
      issues.push({ file: "content/policies", field: "(file)", message: `a policy with key ${required} is required` });
    }
  }
  return policies.sort((a, b) => a.slug.localeCompare(b.slug));
}
