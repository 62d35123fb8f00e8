import { join } from "node:path";
import type { z } from "zod";
import { parseMarkdownFile, parseYamlFile } from "./frontmatter.ts";
import { listFiles, projectRelative, readText } from "./files-fs.ts";
import { issuesFromZod, type ContentIssue } from "./issues.ts";
import type { Entry } from "./model.ts";

export interface Loaded<T> {
  value: T;
  issues: ContentIssue[];
}

/** Parses one Markdown file against `schema`; `null` when it is unreadable or invalid (issues say why). */
export function loadMarkdownEntry<S extends z.ZodType>(
  root: string,
  path: string,
  schema: S,
  issues: ContentIssue[],
): Entry<z.output<S>> | null {
  const file = projectRelative(root, path);
  let parsed;
  try {
    parsed = parseMarkdownFile(readText(path));
  } catch (error) {
    issues.push({ file, field: "frontmatter", message: `cannot be parsed: ${firstLine(error)}` });
    return null;
  }
  const result = schema.safeParse(parsed.data);
  if (!result.success) {
    issues.push(...issuesFromZod(file, result.error));
    return null;
  }
  return { file, data: result.data, body: parsed.body };
}

/** Every `*.md` under `dir`, each with its name (path without `.md`). */
export function loadMarkdownDir<S extends z.ZodType>(
  root: string,
  dir: string,
  schema: S,
  issues: ContentIssue[],
): (Entry<z.output<S>> & { name: string })[] {
  const entries: (Entry<z.output<S>> & { name: string })[] = [];
  for (const relativePath of listFiles(dir, ".md")) {
    const entry = loadMarkdownEntry(root, join(dir, relativePath), schema, issues);
    if (entry) entries.push({ ...entry, name: relativePath.slice(0, -".md".length) });
  }
  return entries;
}

/** Parses one YAML data file; `null` when missing or invalid. */
export function loadYamlFile<S extends z.ZodType>(
  root: string,
  path: string,
  schema: S,
  issues: ContentIssue[],
): z.output<S> | null {
  const file = projectRelative(root, path);
  let data: unknown;
  try {
    data = parseYamlFile(readText(path));
  } catch (error) {
    const missing = error instanceof Error && "code" in error && error.code === "ENOENT";
    issues.push({ file, field: "(file)", message: missing ? "is missing" : `cannot be parsed: ${firstLine(error)}` });
    return null;
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    issues.push(...issuesFromZod(file, result.error));
    return null;
  }
  return result.data;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}
