import type { z } from "zod";

/** One problem found in the content, reported as `file: field: message`. */
export interface ContentIssue {
  /** Path relative to the project root, e.g. `content/docs/store.md`. */
  file: string;
  /** Dotted path to the field, e.g. `claims.2.label`; `(file)` for the file as a whole. */
  field: string;
  message: string;
}

export function formatIssue(issue: ContentIssue): string {
  return `${issue.file}: ${issue.field}: ${issue.message}`;
}

/** Turns zod's issues into content issues, one per violation (unknown keys: one per key). */
export function issuesFromZod(file: string, error: z.ZodError, prefix: readonly PropertyKey[] = []): ContentIssue[] {
  const out: ContentIssue[] = [];
  for (const issue of error.issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ file, field: fieldName([...path, key]), message: "is not a known field" });
      continue;
    }
    out.push({ file, field: fieldName(path), message: describeZodIssue(issue) });
  }
  return out;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0 ? "(file)" : path.map(String).join(".");
}

/** Zod's default messages name types ("expected string, received undefined"); staff need plainer words. */
function describeZodIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.message.includes("received undefined")) return "is required";
  if (issue.code === "invalid_value" && "values" in issue) {
    return `must be one of: ${issue.values.map(String).join(", ")}`;
  }
  return issue.message;
}
