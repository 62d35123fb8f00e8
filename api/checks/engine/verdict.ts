import type { Clause, ClauseKeyword } from "../../../src/schemas/report.ts";
import { type CheckOutcome, fail, listProblems, pass, warn } from "./check-types.ts";

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

  /** Fail on a broken MUST, warn on a missed SHOULD, else pass with `passed` and any notes. */
  outcome(passed: string): CheckOutcome {
    const cite = (keyword: ClauseKeyword, limit = 3): string[] =>
      this.clauses
        .filter((clause) => clause.keyword === keyword)
        .map((clause) => `${clause.problem} (${clause.source})`)
        .slice(0, keyword === "MUST" || keyword === "SHOULD" ? undefined : limit);
    const musts = cite("MUST");
    const shoulds = cite("SHOULD");
    const notes = [...cite("MAY"), ...cite("HINT")];
    const outcome =
      musts.length > 0
        ? fail(listProblems(musts))
        : shoulds.length > 0
          ? warn(listProblems(shoulds))
          : pass(notes.length > 0 ? `${passed}; note: ${listProblems(notes, 2)}` : passed);
    return { ...outcome, clauses: [...this.clauses] };
  }
}
