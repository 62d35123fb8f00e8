// `npm run catalogue`: rewrites content/docs/checks/catalogue.md from the check suite, a run of the corpus (the
// fixture sites under test/fixtures/sites/, served on loopback) and Lighthouse's agentic-browsing audits of the corpus
// sites checked with rendering. A test fails when the committed page is out of date.
import { readFile, writeFile } from "node:fs/promises";
import { CHECK_SUITE } from "../api/checks/engine/suite/registry.ts";
import { runCorpus, toOutcome } from "../test/fixtures/sites/corpus-run.ts";
import { compareSite, comparisonProblems } from "./catalogue/lighthouse-comparison.ts";
import { auditRenderedSites } from "./catalogue/lighthouse-runs.ts";
import { renderCatalogue, replaceBody } from "./catalogue/render-catalogue.ts";

export const CATALOGUE_PAGE = "content/docs/checks/catalogue.md";

const runs = await runCorpus();
const lighthouse = await auditRenderedSites(runs.map((run) => run.site));
for (const run of runs) run.site.lighthouse = lighthouse.get(run.site.name) ?? run.site.lighthouse;
const outcomes = runs.map(toOutcome);
const page = await readFile(CATALOGUE_PAGE, "utf8");
await writeFile(CATALOGUE_PAGE, replaceBody(page, renderCatalogue(CHECK_SUITE, outcomes)));
const disagreements = outcomes.flatMap((outcome) =>
  outcome.verdicts
    .filter((verdict) => verdict.expected !== verdict.got)
    .map((verdict) => `${outcome.name} ${verdict.id}: expected ${verdict.expected ?? "nothing"}, got ${verdict.got}`),
);
const unexplained = outcomes.flatMap((outcome) =>
  outcome.sideBySide === null
    ? []
    : comparisonProblems(outcome.sideBySide, compareSite(outcome.sideBySide, CHECK_SUITE)),
);
console.log(
  `Wrote ${CATALOGUE_PAGE} (${CHECK_SUITE.length} checks, ${runs.length} corpus sites, ${lighthouse.size} beside Lighthouse).`,
);
if (disagreements.length > 0) {
  console.error(`The corpus disagrees with its expected verdicts:\n  ${disagreements.join("\n  ")}`);
  process.exitCode = 1;
}
if (unexplained.length > 0) {
  console.error(`Lighthouse and the rendered checks differ without a reason:\n  ${unexplained.join("\n  ")}`);
  process.exitCode = 1;
}
