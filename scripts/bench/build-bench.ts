// Builds a generated corpus of 2,000 doc pages. Targets on this 2-core machine: ≤ 40 s, ≤ 1 GB.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BUILD_NODE_ARGS } from "../lib/build-node-args.ts";
import { generateCorpus } from "./build-corpus.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

const run = promisify(execFile);

export async function benchBuild(pages = 2000): Promise<BenchSection> {
  const corpus = "test-results/bench-corpus";
  await generateCorpus(corpus, pages);
  const { stdout } = await run(
    process.execPath,
    [...BUILD_NODE_ARGS, "scripts/bench/build-child.ts", corpus, "test-results/bench-corpus-dist"],
    { maxBuffer: 1 << 20 },
  );
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as {
    wallMs: number;
    maxRssMb: number;
    childrenPeakMb: number;
    htmlPages: number;
    routes: number;
  };
  const peakMb = result.maxRssMb + result.childrenPeakMb;
  return {
    title: `Build of a generated corpus of ${pages.toLocaleString("en")} doc pages`,
    rows: [
      {
        metric: "wall time (validate, render, search index, write, manifest)",
        value: `${(result.wallMs / 1000).toFixed(1)} s`,
        target: "≤ 40 s",
        met: result.wallMs <= 40_000,
      },
      {
        // The helpers' peaks are added to the build's own as if they coincided: an upper bound.
        metric: "peak memory (max RSS of the build + the indexer and bundler it starts)",
        value: `${fmt.mb(peakMb)} (${fmt.mb(result.maxRssMb)} + ${fmt.mb(result.childrenPeakMb)})`,
        target: "≤ 1 GB",
        met: peakMb <= 1024,
      },
      {
        metric: "HTML pages / routes written",
        value: `${result.htmlPages} / ${result.routes}`,
        target: "reported",
        met: true,
      },
    ],
  };
}
