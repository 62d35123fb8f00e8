import { describe, expect, it } from "vitest";
import { computeLevel } from "../../api/checks/engine/levels.ts";
import { explainLevel, LEVEL_RULES } from "../../src/lib/readiness-levels.ts";
import type { CheckStatus, Finding } from "../../src/schemas/report.ts";

/** Every check the levels 1 to 4 name; each test sets the level-5 ones (and a2a.card, a level-4 choice too). */
const LEVEL_4_PASSES = LEVEL_RULES.slice(1, 5).flatMap((rules) =>
  rules.flatMap((rule) => (rule.kind === "every" ? rule.checks : rule.options.flatMap((option) => option.checks))),
);

function findings(statuses: Record<string, CheckStatus>): Finding[] {
  return Object.entries(statuses).map(([id, status]) => ({
    id,
    title: `Title of ${id}`,
    category: "discovery",
    severity: "medium",
    status,
    message: `${id} is ${status}`,
  }));
}

function explained(statuses: Record<string, CheckStatus>) {
  const list = findings(statuses);
  return explainLevel(computeLevel(list), list);
}

const passing = Object.fromEntries(LEVEL_4_PASSES.map((id) => [id, "pass" as const]));

describe("explaining a report's level to a person", () => {
  it("lists nothing that cannot apply, and says level 5 is out of reach when its choices do not apply", () => {
    const result = explained({
      ...passing,
      "a2a.card": "n/a",
      "policy.webbotauth": "n/a",
      "oauth.as": "n/a",
      "oauth.prm": "n/a",
    });
    expect(result.next?.value).toBe(5);
    expect(result.outOfReach).toBe(true);
    const [rule] = result.next?.rules ?? [];
    expect(rule).toMatchObject({ kind: "some", count: 2, met: 0, open: [] });
    expect(rule?.cannotApply.map((requirement) => requirement.label)).toEqual([
      "Title of policy.webbotauth",
      "all four integration documents",
      "OAuth metadata",
    ]);
  });

  it("shows a choice the site can still meet, with the checks that stop it", () => {
    const result = explained({
      ...passing,
      "a2a.card": "fail",
      "policy.webbotauth": "pass",
      "oauth.as": "n/a",
      "oauth.prm": "n/a",
    });
    const [rule] = result.next?.rules ?? [];
    expect(rule?.met).toBe(1);
    expect(rule?.open).toEqual([
      {
        label: "all four integration documents",
        checks: [{ id: "a2a.card", title: "Title of a2a.card", status: "fail", message: "a2a.card is fail" }],
      },
    ]);
    expect(rule?.cannotApply.map((requirement) => requirement.label)).toEqual(["OAuth metadata"]);
    expect(result.outOfReach).toBe(false);
  });

  it("counts one OAuth document as the OAuth choice, and an n/a check of an every-rule as met", () => {
    const result = explained({
      ...passing,
      "md.negotiate": "n/a",
      "a2a.card": "n/a",
      "policy.webbotauth": "fail",
      "oauth.as": "pass",
      "oauth.prm": "n/a",
    });
    expect(result.next?.value).toBe(5);
    const [rule] = result.next?.rules ?? [];
    expect(rule?.met).toBe(1);
    expect(rule?.open.map((requirement) => requirement.label)).toEqual(["Title of policy.webbotauth"]);
  });

  it("names the failing check that holds a site at a lower level", () => {
    const result = explained({ ...passing, "md.negotiate": "fail" });
    expect(result.next).toMatchObject({
      value: 3,
      rules: [{ kind: "every", open: [{ label: "Title of md.negotiate" }], cannotApply: [] }],
    });
  });

  it("has nothing to explain at the top of the ladder", () => {
    const result = explained({ ...passing, "a2a.card": "pass", "policy.webbotauth": "pass", "oauth.as": "pass" });
    expect(result).toEqual({ next: null, outOfReach: false });
  });
});
