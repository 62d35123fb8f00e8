// The readiness-check benchmark as a section of `npm run bench`, run in its own process.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ChecksBenchResult } from "./checks-bench.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

const run = promisify(execFile);

export async function benchChecksSection(): Promise<BenchSection> {
  const { stdout } = await run(process.execPath, ["scripts/bench/checks-bench.ts", "--json"], {
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as ChecksBenchResult;
  return {
    title: "Readiness checks of corpus sites on loopback",
    rows: [
      {
        metric: `one full check of the well-prepared site, median of ${result.singleRuns}`,
        value: fmt.ms(result.singleMedianMs),
        target: "≤ 0.5 s",
        met: result.singleMedianMs <= 500,
      },
      {
        metric: `${result.concurrent} checks started at once, all finished`,
        value: fmt.ms(result.concurrentTotalMs),
        target: "≤ 5 s",
        met: result.concurrentTotalMs <= 5000,
      },
      {
        metric: "one check of the hostile site (10 MB and 50 MB bodies, a gzip bomb, a trickle, redirect tricks)",
        value: fmt.ms(result.hostileMs),
        target: "≤ 15 s (the scan budget)",
        met: result.hostileMs <= 15_000,
      },
      {
        metric: "requests per scan (largest)",
        value: String(result.requestsPerScan),
        target: "≤ 60",
        met: result.requestsPerScan <= 60,
      },
      { metric: "peak RSS of the checking process", value: fmt.mb(result.peakRssMb), target: "reported", met: true },
    ],
    notes: [
      "The corpus sites (test/fixtures/sites/exemplary and hostile) run in a child process, so the measured process holds only the checker.",
      `Load average (1 min) when the checks finished: ${result.loadAverage}.`,
    ],
  };
}
