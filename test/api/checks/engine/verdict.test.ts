import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CAUTIONS_LABEL, judge, NOTES_LABEL } from "../../../../api/checks/engine/check-types.ts";
import { Verdict } from "../../../../api/checks/engine/verdict.ts";
import type { ClauseKeyword } from "../../../../src/schemas/report.ts";

const KEYWORDS: readonly ClauseKeyword[] = ["MUST", "SHOULD", "MAY", "HINT"];
const GROUP: Record<ClauseKeyword, "problems" | "cautions" | "notes"> = {
  MUST: "problems",
  SHOULD: "cautions",
  MAY: "notes",
  HINT: "notes",
};

/** Distinct problem texts that cannot be mistaken for the message's own separators. */
const problemText = fc.stringMatching(/^[a-z][a-z ]{2,20}[a-z]$/).map((text) => `problem ${text}`);
const clauses = fc.uniqueArray(fc.record({ keyword: fc.constantFrom(...KEYWORDS), problem: problemText }), {
  selector: (clause) => clause.problem,
  maxLength: 12,
});

/** The part of a composed message that lists one kind of finding. */
function section(message: string, group: "problems" | "cautions" | "notes", found: Record<string, string[]>): string {
  const notesAt = message.indexOf(`; ${NOTES_LABEL}`);
  const head = notesAt === -1 ? message : message.slice(0, notesAt);
  if (group === "notes") return notesAt === -1 ? "" : message.slice(notesAt + NOTES_LABEL.length + 2);
  if ((found.problems ?? []).length === 0) return group === "cautions" ? head : "";
  const alsoAt = head.indexOf(`; ${CAUTIONS_LABEL}`);
  if (group === "problems") return alsoAt === -1 ? head : head.slice(0, alsoAt);
  return alsoAt === -1 ? "" : head.slice(alsoAt + CAUTIONS_LABEL.length + 2);
}

describe("a verdict's message", () => {
  it("names every problem it found, by kind: each is listed or counted, whatever else failed", () => {
    fc.assert(
      fc.property(clauses, (found) => {
        const verdict = new Verdict();
        for (const clause of found) verdict.add(clause.keyword, "spec §1", clause.problem);
        const outcome = verdict.outcome("all is well");
        const groups: Record<string, string[]> = {};
        for (const clause of found) {
          const group = GROUP[clause.keyword];
          groups[group] = [...(groups[group] ?? []), clause.problem];
        }
        const expected = groups.problems ? "fail" : groups.cautions ? "warn" : "pass";
        expect(outcome.status).toBe(expected);
        for (const [group, problems] of Object.entries(groups)) {
          const text = section(outcome.message, group as "problems", groups);
          const named = problems.filter((problem) => text.includes(`${problem} (spec §1)`)).length;
          const counted = Number(/; and (\d+) more$/.exec(text)?.[1] ?? 0);
          // The first of each kind is always named, and the rest are named or counted: none is silently dropped.
          expect(text, `${group} in "${outcome.message}"`).toContain(problems[0]);
          expect(named + counted, `${group} in "${outcome.message}"`).toBe(problems.length);
        }
        if (expected === "pass") expect(outcome.message.startsWith("all is well")).toBe(true);
        else expect(outcome.message).not.toContain("all is well");
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the warning of a failing check: an unnamed field fails, and toolautosubmit on a payment form is still said", () => {
    const outcome = judge(
      {
        problems: ['form "checkout" field 2 (text) is required but has no name'],
        cautions: ['form "checkout" has toolautosubmit on a payment form'],
      },
      "",
    );
    expect(outcome).toEqual({
      status: "fail",
      message:
        'form "checkout" field 2 (text) is required but has no name; also: form "checkout" has toolautosubmit on a payment form',
    });
  });
});
