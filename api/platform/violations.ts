import type { z } from "zod";
import { ApiProblem, pointerFor, type Violation } from "./problem.ts";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/**
 * Every zod issue as a JSON Pointer and a sentence that names what is allowed: the accepted values,
 * the bounds, the expected type. zod's own wording ("Invalid input", "Invalid option") tells an agent
 * that it is wrong but not how to be right, so each issue code is worded here; a message a schema
 * wrote itself (a pattern's shape, a refinement's reason) is kept as written.
 */
export function violationsOf(error: z.ZodError): Violation[] {
  return error.issues.flatMap((issue) => violationsOfIssue(issue, []));
}

export function validationProblem(violations: Violation[]): ApiProblem {
  const count = violations.length;
  return new ApiProblem(
    "validation-failed",
    `${count} field${count === 1 ? "" : "s"} failed validation; errors lists each one.`,
    { errors: violations },
  );
}

function violationsOfIssue(issue: Issue, base: Path): Violation[] {
  const path = [...base, ...issue.path];
  if (issue.code === "unrecognized_keys")
    return issue.keys.map((key) => ({ pointer: pointerFor([...path, key]), detail: "is not an allowed property" }));
  if (issue.code === "invalid_union" && issue.errors.length > 0) return unionViolations(issue.errors, path);
  return [{ pointer: pointerFor(path), detail: describe(issue) }];
}

/**
 * A value that matched no branch of a union. The branch that recognised the value (did not refuse
 * its type outright, or got furthest inside it) has the useful complaint: `"bogus"` for a profile is
 * a wrong choice of string, and `["bogus"]` a wrong first item. The answer leads with that branch and
 * still names the other shapes the field takes.
 */
function unionViolations(branches: readonly (readonly Issue[])[], path: Path): Violation[] {
  const refusedOutright = (issues: readonly Issue[]) =>
    issues.every((issue) => issue.code === "invalid_type" && issue.path.length === 0);
  const wentInside = (issues: readonly Issue[]) => issues.some((issue) => issue.path.length > 0);
  let recognising = branches.filter((issues) => !refusedOutright(issues));
  if (recognising.length > 1) recognising = recognising.filter(wentInside);
  const [chosen] = recognising;
  if (recognising.length === 1 && chosen && wentInside(chosen))
    return chosen.flatMap((issue) => violationsOfIssue(issue, path));
  const ordered = chosen && recognising.length === 1 ? [chosen, ...branches.filter((b) => b !== chosen)] : branches;
  const alternatives = ordered.map((issues) => {
    const [first] = issues;
    return first && first.path.length === 0 ? describe(first).replace(/^must be /, "") : "another accepted shape";
  });
  return [{ pointer: pointerFor(path), detail: `must be ${[...new Set(alternatives)].join(", or ")}` }];
}

function describe(issue: Issue): string {
  if (!zodWording(issue.message)) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return issue.message.includes("received undefined")
        ? "is required"
        : `must be ${article(typeName(issue.expected))}`;
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`;
    case "invalid_union":
      // A discriminated union names the values its discriminator takes.
      return "options" in issue && issue.options !== undefined
        ? `must be one of ${issue.options.map((option) => JSON.stringify(option)).join(", ")}`
        : "matches more than one of the accepted shapes";
    case "too_big":
      return bound(issue.origin, "at most", issue.maximum, issue.inclusive !== false);
    case "too_small":
      return bound(issue.origin, "at least", issue.minimum, issue.inclusive !== false);
    case "invalid_format":
      return issue.format === "regex" && issue.pattern
        ? `must match ${issue.pattern}`
        : `must be a valid ${formatName(issue.format)}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    default:
      return "is not an accepted value";
  }
}

/** zod's generic sentences start with these; a schema's own message never does. */
function zodWording(message: string): boolean {
  return /^(Invalid|Too (big|small)|Expected)\b/.test(message);
}

function formatName(format: string): string {
  return format === "email" ? "e-mail address" : format === "url" ? "URL" : format;
}

function typeName(expected: string): string {
  if (expected === "int") return "integer";
  if (expected === "array") return "array (a JSON list)";
  return expected;
}

function article(noun: string): string {
  if (noun === "null" || noun === "undefined") return noun;
  return /^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function bound(origin: string, side: "at most" | "at least", limit: number | bigint, inclusive: boolean): string {
  if (origin !== "string" && origin !== "array" && origin !== "set")
    return inclusive
      ? `must be ${side} ${String(limit)}`
      : `must be ${side === "at most" ? "less" : "more"} than ${String(limit)}`;
  // Lengths are whole numbers: an exclusive bound is the inclusive one next to it.
  const count = Number(limit) + (inclusive ? 0 : side === "at most" ? -1 : 1);
  const unit = origin === "string" ? "character" : "item";
  const counted = `${count} ${unit}${count === 1 ? "" : "s"}`;
  return origin === "string" ? `must be ${side} ${counted} long` : `must have ${side} ${counted}`;
}
