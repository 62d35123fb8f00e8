import { LEVEL_NAMES, LEVEL_RULES, type LevelRule } from "../../../src/lib/readiness-levels.ts";
import type { CheckStatus, Level } from "../../../src/schemas/report.ts";

export interface LevelInput {
  id: string;
  title: string;
  status: CheckStatus;
  message: string;
}

type Requirement = { check: string; title: string; message: string };

function unmet(rule: LevelRule, byId: ReadonlyMap<string, LevelInput>): Requirement[] {
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
