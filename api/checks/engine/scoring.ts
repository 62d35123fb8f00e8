import {
  type CategoryResult,
  CheckCategorySchema,
  type CheckStatus,
  type Profile,
  ProfileSchema,
  type Score,
} from "../../../src/schemas/report.ts";
import type { CheckDefinition } from "./check-types.ts";
import { CATEGORY_TITLES } from "./suite/registry.ts";

export interface ScoredResult {
  definition: Pick<CheckDefinition, "id" | "category" | "severity">;
  status: CheckStatus;
}

/** A check applies when it is meant for every site or shares a profile with the applied set. */
export function isApplicable(definition: Pick<CheckDefinition, "profiles">, applied: readonly Profile[]): boolean {
  return definition.profiles === "all" || definition.profiles.some((profile) => applied.includes(profile));
}

function tally(results: readonly ScoredResult[]): Omit<Score, "percent"> & { percent: number | null } {
  const scored = results.filter((result) => result.definition.severity !== "info");
  const count = (status: CheckStatus): number => scored.filter((result) => result.status === status).length;
  const pass = count("pass");
  const fail = count("fail");
  return {
    percent: pass + fail === 0 ? null : Math.round((100 * pass) / (pass + fail)),
    pass,
    fail,
    warn: count("warn"),
    na: count("n/a"),
    error: count("error"),
    blocked: count("blocked"),
  };
}

/**
 * round(100 × pass / (pass + fail)) over scored checks. Warn, n/a, error and blocked leave the denominator, and
 * informational checks are never scored (the Cloudflare rule; a scanner failure must not read as the site's failure).
 */
export function scoreResults(results: readonly ScoredResult[]): Score {
  return tally(results);
}

/**
 * More than a quarter of the applicable checks could not reach a verdict, or the site's bot protection kept any check
 * from one (DESIGN §8): the rest is too thin a sample, or too skewed by what the protection let through, to show a
 * score as if it described the site.
 */
export function isIncomplete(results: readonly ScoredResult[]): boolean {
  const applicable = results.filter((result) => result.status !== "n/a").length;
  const errors = results.filter((result) => result.status === "error").length;
  const blocked = results.some((result) => result.status === "blocked");
  return blocked || (applicable > 0 && errors * 4 > applicable);
}

export function categoryResults(results: readonly ScoredResult[]): CategoryResult[] {
  return CheckCategorySchema.options.map((id) => ({
    id,
    title: CATEGORY_TITLES[id],
    ...tally(results.filter((result) => result.definition.category === id)),
  }));
}

/** `content,docs` or `all` → profiles in their canonical order; throws on an unknown name. */
export function parseProfiles(value: string | readonly string[]): Profile[] {
  const parts = (typeof value === "string" ? value.split(",") : value)
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== "");
  if (parts.includes("all")) return [...ProfileSchema.options];
  const unknown = parts.filter((part) => !ProfileSchema.safeParse(part).success);
  if (unknown.length > 0)
    throw new RangeError(`unknown profile(s): ${unknown.join(", ")} (use ${ProfileSchema.options.join(", ")} or all)`);
  return ProfileSchema.options.filter((profile) => parts.includes(profile));
}
