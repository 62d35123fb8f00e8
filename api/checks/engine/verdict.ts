import type { Clause, ClauseKeyword } from "../../../src/schemas/report.ts";
import { type CheckOutcome, judge } from "./check-types.ts";

/**
 * Collects what a check found wrong, each problem with the clause it breaks, and turns them into one outcome by the
 * spec's own keyword (DESIGN §8): a broken MUST fails, a missed SHOULD warns, a MAY or a hint is mentioned without
 * lowering the verdict. The clauses go into the report's evidence.
 */
export class Verdict {
  readonly clauses: Clause[] = [];

  must(source: string, problem: string): this {
    return this.add("MUST", source, problem);
  }

  should(source: string, problem: string): this {
    return this.add("SHOULD", source, problem);
  }

  may(source: string, problem: string): this {
    return this.add("MAY", source, problem);
  }

  hint(source: string, problem: string): this {
    return this.add("HINT", source, problem);
  }

  add(keyword: ClauseKeyword, source: string, problem: string): this {
    this.clauses.push({ keyword, source, problem });
    return this;
  }

  /** A MUST is broken: nothing the site does elsewhere can make the check pass. */
  get failing(): boolean {
    return this.clauses.some((clause) => clause.keyword === "MUST");
  }

  /**
   * Fail on a broken MUST, warn on a missed SHOULD, else pass with `passed`; the message names every problem found,
   * the SHOULDs after the MUSTs and the MAYs and hints after both (see `judge`).
   */
  outcome(passed: string): CheckOutcome {
    const cite = (...keywords: ClauseKeyword[]): string[] =>
      this.clauses
        .filter((clause) => keywords.includes(clause.keyword))
        .map((clause) => `${clause.problem} (${clause.source})`);
    const outcome = judge({ problems: cite("MUST"), cautions: cite("SHOULD"), notes: cite("MAY", "HINT") }, passed);
    return { ...outcome, clauses: [...this.clauses] };
  }
}
