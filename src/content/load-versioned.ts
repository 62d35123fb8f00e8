import { join } from "node:path";
import type { z } from "zod";
import { checkVersionHistory, versionDate, versionMatchesPublishedAt, type VersionRecord } from "../lib/versions.ts";
import { listFiles } from "./files-fs.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownEntry } from "./load-entries.ts";
import type { ArchivedVersion } from "./model.ts";

interface Versioned {
  version: string;
  published_at: string;
}

/** The version a page with this key must carry for its publication time. */
export function expectedVersion(key: string, publishedAt: string): string {
  return `${key}-${publishedAt.slice(0, 10)}`;
}

export function checkVersionName(
  file: string,
  key: string,
  data: Versioned,
  issues: ContentIssue[],
  allowRevision = false,
): void {
  const date = versionDate(data.version);
  const prefixOk = data.version.startsWith(`${key}-`) && data.version.slice(key.length + 1).match(allowRevision ? /^\d{4}-\d{2}-\d{2}(?:\.\d+)?$/ : /^\d{4}-\d{2}-\d{2}$/);
  if (!prefixOk) {
    issues.push({
      file,
      field: "version",
      message: `must be ${key}-YYYY-MM-DD${allowRevision ? " (optionally .N)" : ""}, e.g. ${expectedVersion(key, data.published_at)}`,
    });
  } else if (!versionMatchesPublishedAt(data.version, data.published_at)) {
    issues.push({
      file,
      field: "version",
      message: `its date ${date} does not match published_at (${data.published_at.slice(0, 10)})`,
    });
  }
}

/**
 * Loads `archiveDir/<key>/<version>.md` for every key, validates each against `schema`, and checks
 * each key's whole history (archived versions plus the current one) for order and duplicates.
 */
export function loadArchive<S extends z.ZodType<Versioned & { superseded_at: string }>>(
  root: string,
  archiveDir: string,
  schema: S,
  issues: ContentIssue[],
  allowRevision = false,
): Map<string, ArchivedVersion<z.output<S>>[]> {
  const byKey = new Map<string, ArchivedVersion<z.output<S>>[]>();
  for (const relativePath of listFiles(archiveDir, ".md")) {
    const [key, fileName, ...rest] = relativePath.split("/");
    const entry = loadMarkdownEntry(root, join(archiveDir, relativePath), schema, issues);
    if (!entry || !key || !fileName) continue;
    if (rest.length > 0) {
      issues.push({ file: entry.file, field: "(file)", message: "archived versions live at <key>/<version>.md" });
      continue;
    }
    const data = entry.data as z.output<S>;
    if (fileName !== `${data.version}.md`) {
      issues.push({ file: entry.file, field: "version", message: `must match the file name (${fileName.slice(0, -3)})` });
    }
    checkVersionName(entry.file, key, data, issues, allowRevision);
    const list = byKey.get(key) ?? [];
    list.push(entry as ArchivedVersion<z.output<S>>);
    byKey.set(key, list);
  }
  for (const list of byKey.values()) list.sort((a, b) => b.data.published_at.localeCompare(a.data.published_at));
  return byKey;
}

/** Adds the current version to its archive's history and reports every ordering problem. */
export function checkHistory(
  current: { file: string; data: Versioned },
  archive: readonly ArchivedVersion<Versioned & { superseded_at: string }>[],
  issues: ContentIssue[],
): void {
  const oldestFirst: VersionRecord[] = [...archive].reverse().map((entry) => ({
    file: entry.file,
    version: entry.data.version,
    published_at: entry.data.published_at,
    superseded_at: entry.data.superseded_at,
  }));
  oldestFirst.push({ file: current.file, version: current.data.version, published_at: current.data.published_at, superseded_at: null });
  issues.push(...checkVersionHistory(oldestFirst));
}
