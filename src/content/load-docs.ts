import { join } from "node:path";
import { ArchivedDocFrontmatterSchema, DocFrontmatterSchema, DocPathSchema } from "../schemas/doc.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownDir } from "./load-entries.ts";
import { checkHistory, checkVersionName, loadArchive } from "./load-versioned.ts";
import type { DocEntry } from "./model.ts";

export function docKey(path: string, override?: string): string {
  return override ?? path.replaceAll("/", "--");
}

/** `content/docs/**.md` with their archived versions, in sidebar order. */
export function loadDocs(root: string, contentDir: string, issues: ContentIssue[]): DocEntry[] {
  const entries = loadMarkdownDir(root, join(contentDir, "docs"), DocFrontmatterSchema, issues);
  const archive = loadArchive(root, join(contentDir, "archive", "docs"), ArchivedDocFrontmatterSchema, issues);
  const docs: DocEntry[] = [];
  const keys = new Map<string, string>();
  for (const entry of entries) {
    const pathCheck = DocPathSchema.safeParse(entry.name);
    if (!pathCheck.success) {
      const segments = entry.name.split("/");
      issues.push({
        file: entry.file,
        field: "(file)",
        message: segments.includes("index")
          ? "index is reserved for the docs home (/docs); name the page, e.g. overview.md"
          : segments.length > 4
            ? `its path has ${segments.length} segments; doc paths have at most 4`
            : "its path must be lower-case segments of a-z, 0-9 and single hyphens",
      });
      continue;
    }
    const key = docKey(entry.name, entry.data.key);
    const other = keys.get(key);
    if (other) {
      issues.push({ file: entry.file, field: "key", message: `${key} is already the key of ${other}` });
      continue;
    }
    keys.set(key, entry.file);
    checkVersionName(entry.file, key, entry.data, issues);
    const history = archive.get(key) ?? [];
    checkHistory(entry, history, issues);
    for (const archived of history) {
      if (archived.data.version === entry.data.version) {
        issues.push({ file: archived.file, field: "version", message: "is also the current version" });
      }
    }
    docs.push({ file: entry.file, data: entry.data, body: entry.body, path: entry.name, key, archive: history });
  }
  for (const [key, history] of archive) {
    if (!keys.has(key)) {
      for (const archived of history) {
        issues.push({ file: archived.file, field: "(file)", message: `no current page has the key ${key}` });
      }
    }
  }
  return docs;
}
