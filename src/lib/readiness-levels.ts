import type { CheckStatus, Finding, Level } from "../schemas/report.ts";

export const LEVEL_NAMES = [
  "Not Ready",
  "Basic Web Presence",
  "Bot-Aware",
  "Agent-Readable",
  "Agent-Integrated",
  "Agent-Native",
] as const;

/**
 * - every: each check passes, or is n/a because it does not apply to this kind of site
 * - some: at least `count` of the options pass; an option is a set of checks that must all pass
 */
export type LevelRule =
  | { kind: "every"; checks: readonly string[] }
  | { kind: "some"; count: number; options: ReadonlyArray<{ label: string; checks: readonly string[] }> };

const INTEGRATION_DOCS = ["mcp.card", "a2a.card", "skills.index", "catalog.api"] as const;

/**
 * The ladder Reaudit describes for Cloudflare's levels (docs.reaudit.io/agent-readiness), mapped to this suite's ids.
 * Levels are cumulative: a site holds level N only if it meets levels 1..N.
 */
export const LEVEL_RULES: ReadonlyArray<readonly LevelRule[]> = [
  [],
  [
    { kind: "every", checks: ["http.home-200"] },
    {
      kind: "some",
      count: 2,
      options: ["robots.exists", "robots.sitemap", "link.headers"].map((id) => ({ label: id, checks: [id] })),
    },
  ],
  [{ kind: "every", checks: ["policy.ai-bots", "policy.content-signals"] }],
  [{ kind: "every", checks: ["md.negotiate"] }],
  [{ kind: "some", count: 1, options: INTEGRATION_DOCS.map((id) => ({ label: id, checks: [id] })) }],
  [
    {
      kind: "some",
      count: 2,
      options: [
        { label: "Web Bot Auth", checks: ["policy.webbotauth"] },
        { label: "all four integration documents", checks: INTEGRATION_DOCS },
        { label: "OAuth metadata", checks: ["oauth.as"] },
        { label: "OAuth metadata", checks: ["oauth.prm"] },
      ],
    },
  ],
];

/** A check as a report shows it to a person. */
export interface LevelCheck {
  id: string;
  title: string;
  status: CheckStatus | "not checked";
  message: string;
}

/** One requirement of the next level: a check to pass, or (for "some of") one of the choices. */
export interface LevelRequirement {
  label: string;
  checks: LevelCheck[];
}

/** One rule of the next level, split into what can still be done and what cannot apply to this site. */
export interface LevelRuleExplained {
  /** "every" needs each open requirement; "some" needs `count`, of which `met` are met already. */
  kind: "every" | "some";
  count: number;
  met: number;
  /** Requirements this site can still meet: the ones to show. */
  open: LevelRequirement[];
  /** Requirements whose checks do not apply to this site (n/a): they can never count, so they are not listed. */
  cannotApply: LevelRequirement[];
}

export interface LevelExplained {
  next: { value: number; name: string; rules: LevelRuleExplained[] } | null;
  /**
   * True when the next level is out of this site's reach: a "some of" rule has too few choices
   * that can apply to it, however many of the open ones it meets.
   */
  outOfReach: boolean;
}

/**
 * Why a report holds the level it does, for the report page: the next level's unmet rules, with the
 * requirements that cannot apply (n/a) set apart. n/a is neither a pass nor a fail: it leaves the
 * score alone, counts as met in an "every" rule, and can never be one of the "some of" choices.
 */
export function explainLevel(level: Level, findings: readonly Finding[]): LevelExplained {
  if (!level.next) return { next: null, outOfReach: false };
  const byId = new Map(findings.map((finding) => [finding.id, finding]));
  const check = (id: string): LevelCheck => {
    const finding = byId.get(id);
    return finding
      ? { id, title: finding.title, status: finding.status, message: finding.message }
      : { id, title: id, status: "not checked", message: "this check did not run" };
  };
  const rules: LevelRuleExplained[] = [];
  for (const rule of LEVEL_RULES[level.next.value] ?? []) {
    const explained = rule.kind === "every" ? explainEvery(rule.checks, check) : explainSome(rule, check);
    if (explained) rules.push(explained);
  }
  const outOfReach = rules.some((rule) => rule.kind === "some" && rule.met + rule.open.length < rule.count);
  return { next: { value: level.next.value, name: level.next.name, rules }, outOfReach };
}

function explainEvery(ids: readonly string[], check: (id: string) => LevelCheck): LevelRuleExplained | null {
  const open = ids
    .map(check)
    .filter((item) => item.status !== "pass" && item.status !== "n/a")
    .map((item) => ({ label: item.title, checks: [item] }));
  return open.length === 0 ? null : { kind: "every", count: open.length, met: 0, open, cannotApply: [] };
}

function explainSome(
  rule: Extract<LevelRule, { kind: "some" }>,
  check: (id: string) => LevelCheck,
): LevelRuleExplained | null {
  // Options with one label (the two OAuth documents) are one choice: either of them meets it.
  const labels = [...new Set(rule.options.map((option) => option.label))];
  const choices = labels.map((label) => {
    const options = rule.options.filter((option) => option.label === label).map((option) => option.checks.map(check));
    const met = options.some((checks) => checks.every((item) => item.status === "pass"));
    const possible = options.filter((checks) => checks.every((item) => item.status !== "n/a"));
    const single = options.length === 1 && options[0]?.length === 1 ? options[0][0] : undefined;
    const display = single ? single.title : label;
    return {
      met,
      requirement: {
        label: display,
        checks: (possible.length > 0 ? possible : options).flat().filter((item) => item.status !== "pass"),
      },
      canApply: possible.length > 0,
    };
  });
  const met = choices.filter((choice) => choice.met).length;
  if (met >= rule.count) return null;
  const unmet = choices.filter((choice) => !choice.met);
  return {
    kind: "some",
    count: rule.count,
    met,
    open: unmet.filter((choice) => choice.canApply).map((choice) => choice.requirement),
    cannotApply: unmet.filter((choice) => !choice.canApply).map((choice) => choice.requirement),
  };
}
