// `npm run catalogue`: rewrites content/docs/checks/catalogue.md from the check suite and a run of the corpus (the
// fixture sites under test/fixtures/sites/, served on loopback). A test fails when the committed page is out of date.
import { readFile, writeFile } from "node:fs/promises";
import { CHECK_SUITE } from "../api/checks/engine/suite/registry.ts";
import { runCorpus, toOutcome } from "../test/fixtures/sites/corpus-run.ts";
import { renderCatalogue, replaceBody } from "./catalogue/render-catalogue.ts";

export const CATALOGUE_PAGE = "content/docs/checks/catalogue.md";

const runs = await runCorpus();
const page = await readFile(CATALOGUE_PAGE, "utf8");
await writeFile(CATALOGUE_PAGE, replaceBody(page, renderCatalogue(CHECK_SUITE, runs.map(toOutcome))));
const disagreements = runs.flatMap((run) =>
  toOutcome(run)
    .verdicts.filter((verdict) => verdict.expected !== verdict.got)
    .map((verdict) => `${run.site.name} ${verdict.id}: expected ${verdict.expected ?? "nothing"}, got ${verdict.got}`),
);
console.log(`Wrote ${CATALOGUE_PAGE} (${CHECK_SUITE.length} checks, ${runs.length} corpus sites).`);
if (disagreements.length > 0) {
  console.error(`The corpus disagrees with its expected verdicts:\n  ${disagreements.join("\n  ")}`);
  process.exitCode = 1;
}
