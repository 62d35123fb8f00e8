import { inject } from "vitest";
import type { EntryName } from "../_compiled-entries.ts";

/**
 * The Node arguments that start a program as its npm script does (`api/server.ts`, `scripts/admin.ts`,
 * `scripts/check.ts`), from the copy the global setup compiled once for the run.
 */
export function entryArgs(name: EntryName): string[] {
  return [inject("entries")[name]];
}
