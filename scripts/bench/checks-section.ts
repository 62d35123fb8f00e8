// The readiness-check benchmark as a section of `npm run bench`, run in its own process.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ChecksBenchResult } from "./checks-bench.ts";
import { type BenchSection, fmt } from "./lib/report.ts";

const run = promisify(execFile);

export async function benchChecksSection(): Promise<BenchSection> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", "scripts/bench/checks-bench.ts", "--json"], {
    maxBuffer: 1 << 20,
  });
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as ChecksBenchResult;
  return {
    title: "Readiness checks of the well-prepared loopback fixture",
    rows: [
      {
        metric: `one full check, median of ${result.singleRuns}`,
        value: fmt.ms(result.singleMedianMs),
        target: "≤ 1 s",
        met: result.singleMedianMs <= 1000,
      },
      {
        metric: `${result.concurrent} checks started at once, all finished`,
        value: fmt.ms(result.concurrentTotalMs),
        target: "≤ 5 s",
        met: result.concurrentTotalMs <= 5000,
      },
      {
        metric: "requests per scan (largest)",
        value: String(result.requestsPerScan),
        target: "≤ 60",
        met: result.requestsPerScan <= 60,
      },
      { metric: "peak RSS of the checking process", value: fmt.mb(result.peakRssMb), target: "reported", met: true },
    ],
    notes: ["The fixture site runs in a child process, so the measured process holds only the checker."],
  };
}
