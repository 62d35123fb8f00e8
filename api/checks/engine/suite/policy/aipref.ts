import { parseDictionary, Token } from "structured-headers";
import { defineCheck, notApplicable } from "../../check-types.ts";
import { loadHome, loadRobots } from "../../documents/site.ts";
import { groupsFor } from "../../parse/robots.ts";
import { Verdict } from "../../verdict.ts";

const ATTACH = "https://datatracker.ietf.org/doc/draft-ietf-aipref-attach/";
const VOCAB = "https://datatracker.ietf.org/doc/draft-ietf-aipref-vocab/";
/** The vocabulary's categories (draft-ietf-aipref-vocab, Usage Category Labels): `train-ai` and `search`. */
const CATEGORIES = ["train-ai", "search"] as const;
type Category = (typeof CATEGORIES)[number];
type Preference = "allow" | "disallow";
/** Content Signals (contentsignals.org) name the same two uses `ai-train` and `search`; `ai-input` has no aipref match. */
const SIGNAL_FOR: Readonly<Record<Category, string>> = { "train-ai": "ai-train", search: "search" };

export interface Statement {
  /** Where it was stated, for the report: "robots.txt" or "the Content-Usage header of /". */
  source: string;
  preferences: Partial<Record<Category, Preference>>;
}

/**
 * Reads one statement of preference by draft-ietf-aipref-vocab's Processing Algorithm: a Structured Fields dictionary whose `y`/`n`
 * tokens allow or disallow a category; anything else leaves it unknown (said in `unknown`), unknown labels are ignored.
 */
export function readUsage(
  value: string,
  source: string,
): { statement: Statement | null; unknown: string[]; ignored: string[] } {
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(value);
  } catch {
    return { statement: null, unknown: [], ignored: [] };
  }
  const statement: Statement = { source, preferences: {} };
  const unknown: string[] = [];
  for (const category of CATEGORIES) {
    const member = dictionary.get(category);
    if (member === undefined) continue;
    const [item] = member;
    const token = item instanceof Token ? item.toString() : null;
    if (token === "y") statement.preferences[category] = "allow";
    else if (token === "n") statement.preferences[category] = "disallow";
    else unknown.push(`${category}=${token ?? JSON.stringify(item)}`);
  }
  const ignored = [...dictionary.keys()].filter((key) => !(CATEGORIES as readonly string[]).includes(key));
  return { statement, unknown, ignored };
}

/** Content-Signal lines (`search=yes, ai-train=no`) as statements in the aipref model, for the cross-check. */
export function readSignals(lines: readonly string[]): Statement | null {
  const preferences: Statement["preferences"] = {};
  for (const pair of lines.flatMap((line) => line.split(","))) {
    const [key = "", value = ""] = pair.split("=").map((part) => part.trim().toLowerCase());
    const category = CATEGORIES.find((candidate) => SIGNAL_FOR[candidate] === key);
    if (category !== undefined && (value === "yes" || value === "no"))
      preferences[category] = value === "yes" ? "allow" : "disallow";
  }
  return Object.keys(preferences).length === 0 ? null : { source: "Content-Signal", preferences };
}

/** Categories on which the statements disagree, each with the one that wins (vocab, Combining Preferences: the most restrictive). */
export function contradictions(statements: readonly Statement[]): string[] {
  return CATEGORIES.flatMap((category) => {
    const stated = statements.filter((statement) => statement.preferences[category] !== undefined);
    const allows = stated.filter((statement) => statement.preferences[category] === "allow");
    const denies = stated.filter((statement) => statement.preferences[category] === "disallow");
    if (allows.length === 0 || denies.length === 0) return [];
    const names = (list: Statement[]) => list.map((statement) => statement.source).join(" and ");
    const verb = (list: Statement[], word: string) => `${word}${list.length === 1 ? "s" : ""}`;
    return [
      `${category}: ${names(allows)} ${verb(allows, "allow")} it, ${names(denies)} ${verb(denies, "disallow")} it, so it is disallowed`,
    ];
  });
}

/** A robots.txt rule value: an optional path (starting with "/"), then the preferences (attach §3.2). */
function splitRule(value: string): { path: string | null; preferences: string } {
  if (!value.startsWith("/")) return { path: null, preferences: value };
  const space = value.search(/[ \t]/);
  return space === -1
    ? { path: value, preferences: "" }
    : { path: value.slice(0, space), preferences: value.slice(space).trim() };
}

export const contentUsage = defineCheck({
  id: "policy.content-usage",
  title: "AI usage preferences (IETF aipref Content-Usage) parse and agree with Content-Signal",
  requests: "`robots.txt` and the homepage's headers (fetched by other checks)",
  passes:
    "each `Content-Usage` robots rule and header is a Structured Fields dictionary (else `fail`) whose `train-ai` and `search` are `y` or `n` (other values are unknown: `warn`); statements that contradict each other or `Content-Signal` are `warn`, naming the most restrictive that wins; none is `n/a`",
  category: "bot-policy",
  severity: "low",
  maturity: "draft",
  profiles: ["content"],
  remediation:
    "State AI usage preferences once and consistently: `Content-Usage: train-ai=n, search=y` (tokens y or n) in the User-agent: * group of robots.txt and/or as a header, matching your Content-Signal line (ai-train ↔ train-ai, search ↔ search).",
  prompt:
    "Add to the `User-agent: *` group of our robots.txt a line `Content-Usage: train-ai=<y|n>, search=<y|n>` (bare tokens y or n, lower case) that says the same as our Content-Signal line (ai-train=no ↔ train-ai=n, search=yes ↔ search=y); if we also send a Content-Usage response header, make it identical.",
  specUrls: [ATTACH, VOCAB, "https://contentsignals.org"],
  async run(context) {
    const [{ robots }, home] = await Promise.all([loadRobots(context), loadHome(context)]);
    const wildcard = robots === null ? [] : groupsFor(robots, "*");
    const robotsRules = wildcard.flatMap((group) => group.contentUsage);
    const header = home.response.headers["content-usage"];
    if (robotsRules.length === 0 && header === undefined && (robots?.orphanContentUsage.length ?? 0) === 0)
      return notApplicable("no Content-Usage in robots.txt or on /; aipref preferences are optional");
    const verdict = new Verdict();
    const statements: Statement[] = [];
    const read = (value: string, source: string): void => {
      const { statement, unknown, ignored } = readUsage(value, source);
      if (statement === null)
        verdict.must(`${ATTACH} §2 (a Structured Fields dictionary)`, `${source} "${value}" does not parse`);
      else statements.push(statement);
      if (unknown.length > 0)
        verdict.should(
          `${VOCAB} (Processing Algorithm)`,
          `${source} ${unknown.join(", ")}: only the tokens y and n state a preference`,
        );
      if (ignored.length > 0)
        verdict.hint(
          `${VOCAB} (Syntax Extensions: unknown labels MUST be ignored)`,
          `${source}: ${ignored.join(", ")} is not in the vocabulary and is ignored`,
        );
    };
    for (const rule of robotsRules) {
      const { path, preferences } = splitRule(rule);
      // Only the rules for the whole site meet the homepage's header; path rules are read for their syntax alone.
      const source = path === null || path === "/" ? "robots.txt" : `robots.txt (for ${path})`;
      if (path === null || path === "/") read(preferences, source);
      else if (readUsage(preferences, source).statement === null)
        verdict.must(`${ATTACH} §3.2`, `${source} "${preferences}" does not parse`);
    }
    if ((robots?.orphanContentUsage.length ?? 0) > 0)
      verdict.should(
        `${ATTACH} §3`,
        "a Content-Usage line comes before any User-agent line, so it belongs to no group",
      );
    if (header !== undefined) read(header, "the Content-Usage header of /");
    const signals = readSignals(
      robots === null ? [] : [...wildcard.flatMap((group) => group.contentSignals), ...robots.orphanContentSignals],
    );
    for (const conflict of contradictions(signals === null ? statements : [...statements, signals]))
      verdict.should(`${VOCAB} (Combining Preferences: the most restrictive applies)`, conflict);
    const stated = CATEGORIES.filter((category) => statements.some((s) => s.preferences[category] !== undefined));
    return verdict.outcome(
      `Content-Usage states ${stated.join(" and ") || "no category"}${signals === null ? "" : ", in agreement with Content-Signal"}`,
    );
  },
});
