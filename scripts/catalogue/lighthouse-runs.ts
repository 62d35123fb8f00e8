import { writeFile } from "node:fs/promises";
import {
  type CorpusSite,
  type LighthouseRun,
  lighthouseFile,
  startCorpusSite,
} from "../../test/fixtures/sites/corpus.ts";
import { auditPages } from "../audit/lighthouse.ts";

/**
 * Runs Lighthouse's agentic-browsing category on the homepage of each rendered corpus site, served on loopback, and
 * keeps the audits in the site's lighthouse.json (so the catalogue's side-by-side table is rebuilt without Lighthouse,
 * by the test that holds the page to the suite). One site at a time: Lighthouse times its own loads.
 */
export async function auditRenderedSites(sites: readonly CorpusSite[]): Promise<Map<string, LighthouseRun>> {
  const runs = new Map<string, LighthouseRun>();
  for (const site of sites.filter((candidate) => candidate.manifest.render)) {
    const server = await startCorpusSite(site);
    try {
      const [page] = await auditPages([`${server.origin}/`], 1, ["agentic-browsing"]);
      if (page === undefined) throw new Error(`Lighthouse returned nothing for ${site.name}`);
      const run: LighthouseRun = {
        version: page.version,
        audits: page.audits["agentic-browsing"].map(({ id, score, scoreDisplayMode, items }) => ({
          id,
          score,
          scoreDisplayMode,
          items,
        })),
      };
      await writeFile(lighthouseFile(site.name), `${JSON.stringify(run, null, 2)}\n`);
      runs.set(site.name, run);
    } finally {
      await server.close();
    }
  }
  return runs;
}
