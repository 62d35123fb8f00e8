import type { z } from "zod";

export type JsonParseResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text.replace(/^\uFEFF/, "")) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A remote JSON document checked against a zod schema; the first few issues as one line. */
export function describeIssues(error: z.ZodError, limit = 3): string {
  const issues = error.issues.slice(0, limit).map((issue) => {
    const path = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".");
    return `${path}: ${issue.message}`;
  });
  const more = error.issues.length > limit ? ` (+${error.issues.length - limit} more)` : "";
  return issues.join("; ") + more;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality of two parsed JSON values (key order ignored). */
export function jsonEqual(left: unknown, right: unknown): boolean {
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]));
  }
  if (isRecord(left) && isRecord(right)) {
    const leftKeys = Object.keys(left);
    return (
      leftKeys.length === Object.keys(right).length &&
      leftKeys.every((key) => key in right && jsonEqual(left[key], right[key]))
    );
  }
  return Object.is(left, right);
}
