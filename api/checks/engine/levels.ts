import type { CheckStatus, Level } from "../../../src/schemas/report.ts";

export const LEVEL_NAMES = [
  "Not Ready",
  "Basic Web Presence",
  "Bot-Aware",
  "Agent-Readable",
  "Agent-Integrated",
  "Agent-Native",
] as const;

export interface LevelInput {
  id: string;
  title: string;
  status: CheckStatus;
  message: string;
}

/**
 * - every: each check passes, or is n/a because it does not apply to this kind of site
 * - some: at least `count` of the options pass; an option is a set of checks that must all pass
 */
type Rule =
  | { kind: "every"; checks: readonly string[] }
  | { kind: "some"; count: number; options: ReadonlyArray<{ label: string; checks: readonly string[] }> };

const INTEGRATION_DOCS = ["mcp.card", "a2a.card", "skills.index", "catalog.api"] as const;

/**
 * The ladder Reaudit describes for Cloudflare's levels (docs.reaudit.io/agent-readiness), mapped to this suite's ids.
 * Levels are cumulative: a site holds level N only if it meets levels 1..N.
 */
export const LEVEL_RULES: ReadonlyArray<readonly Rule[]> = [
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

type Requirement = { check: string; title: string; message: string };

function unmet(rule: Rule, byId: ReadonlyMap<string, LevelInput>): Requirement[] {
  const describe = (id: string, prefix = ""): Requirement => {
    const result = byId.get(id);
    return {
      check: id,
      title: result?.title ?? id,
      message: `${prefix}${result === undefined ? "not checked" : `${result.status}: ${result.message}`}`,
    };
  };
  const passes = (id: string): boolean => byId.get(id)?.status === "pass";
  if (rule.kind === "every") {
    return rule.checks.filter((id) => !passes(id) && byId.get(id)?.status !== "n/a").map((id) => describe(id));
  }
  const labels = new Set(rule.options.filter((option) => option.checks.every(passes)).map((option) => option.label));
  if (labels.size >= rule.count) return [];
  const missing = rule.options.flatMap((option) => option.checks.filter((id) => !passes(id)));
  const prefix = `needs ${rule.count} of ${[...new Set(rule.options.map((option) => option.label))].join(" / ")} (${labels.size} met) — `;
  return [...new Set(missing)].map((id) => describe(id, prefix));
}

export function computeLevel(results: readonly LevelInput[]): Level {
  const byId = new Map(results.map((result) => [result.id, result]));
  let value = 0;
  for (let level = 1; level < LEVEL_RULES.length; level += 1) {
    const requirements = (LEVEL_RULES[level] ?? []).flatMap((rule) => unmet(rule, byId));
    if (requirements.length > 0) {
      return {
        value,
        name: LEVEL_NAMES[value] ?? "",
        next: { value: level, name: LEVEL_NAMES[level] ?? "", requirements },
      };
    }
    value = level;
  }
  return { value, name: LEVEL_NAMES[value] ?? "", next: null };
}
