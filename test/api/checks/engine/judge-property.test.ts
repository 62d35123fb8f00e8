import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CAUTIONS_LABEL, judge, NOTES_LABEL } from "../../../../api/checks/engine/check-types.ts";

type Kind = "problem" | "caution" | "note";
const KINDS: readonly Kind[] = ["problem", "caution", "note"];
const PASSED = "everything holds";

/** Walks a composed message and tallies, per kind, the findings it names and the ones it counts ("and N more"). */
function tally(message: string): Record<Kind, { named: string[]; counted: number }> {
  const seen: Record<Kind, { named: string[]; counted: number }> = {
    problem: { named: [], counted: 0 },
    caution: { named: [], counted: 0 },
    note: { named: [], counted: 0 },
  };
  let last: Kind | null = null;
  for (const raw of message.split("; ")) {
    const part = raw.replace(CAUTIONS_LABEL, "").replace(NOTES_LABEL, "");
    const more = /^and (\d+) more$/.exec(part);
    if (more !== null) {
      if (last === null) throw new Error(`a count before any finding in "${message}"`);
      seen[last].counted += Number(more[1]);
      continue;
    }
    const kind = KINDS.find((candidate) => part.startsWith(`${candidate} `));
    if (kind === undefined) continue;
    seen[kind].named.push(part);
    last = kind;
  }
  return seen;
}

describe("judge(), over random findings", () => {
  it("takes the worst status present, names or counts every problem and caution, and keeps cautions beside problems", () => {
    // Each kind: none, or up to 8 findings, each named after its kind and place so the tally can find it.
    const findings = (kind: Kind) =>
      fc.nat(8).map((length) => Array.from({ length }, (_, index) => `${kind} ${index}`));
    fc.assert(
      fc.property(findings("problem"), findings("caution"), findings("note"), (problem, caution, note) => {
        const found: Record<Kind, string[]> = { problem, caution, note };
        const outcome = judge({ problems: found.problem, cautions: found.caution, notes: found.note }, PASSED);
        const context = JSON.stringify(outcome);

        const worst = found.problem.length > 0 ? "fail" : found.caution.length > 0 ? "warn" : "pass";
        expect(outcome.status, context).toBe(worst);

        const seen = tally(outcome.message);
        for (const kind of KINDS) {
          // What is named is the findings themselves, in order, and the count makes up the rest exactly.
          expect(seen[kind].named, context).toEqual(found[kind].slice(0, seen[kind].named.length));
          expect(seen[kind].named.length + seen[kind].counted, context).toBe(found[kind].length);
        }

        // A fail never hides its cautions: they follow the problems, labelled, before any note.
        if (found.problem.length > 0 && found.caution.length > 0) {
          const cautions = outcome.message.indexOf(`${CAUTIONS_LABEL}caution `);
          expect(cautions, context).toBeGreaterThan(outcome.message.indexOf("problem "));
          const notes = outcome.message.indexOf(NOTES_LABEL);
          if (notes !== -1) expect(cautions, context).toBeLessThan(notes);
        }
        // Notes never lower the verdict, and the passing phrase is said only when nothing is wrong.
        expect(outcome.message.includes(PASSED), context).toBe(worst === "pass");
        if (worst === "pass" && found.note.length > 0)
          expect(outcome.message.startsWith(`${PASSED}; ${NOTES_LABEL}`)).toBe(true);
      }),
      { numRuns: 2000, seed: 31 },
    );
  });
});
