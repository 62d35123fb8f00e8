// The readiness-check benchmark as a section of `npm run bench`, run in its own process.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BROWSER_PSS_TARGET_MB, type ChecksBenchResult, RENDERED_SCAN_TARGET_MS } from "./checks-bench.ts";
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
      {
        metric: `one rendered scan of the client-rendered site (render: true), median of ${result.renderedRuns}`,
        value: fmt.ms(result.renderedMedianMs),
        target: `≤ ${RENDERED_SCAN_TARGET_MS / 1000} s`,
        met: result.renderedMedianMs <= RENDERED_SCAN_TARGET_MS,
      },
      {
        metric: "the first rendered scan, which launches the browser",
        value: fmt.ms(result.renderedFirstMs),
        target: "≤ 15 s (the rendering's limit)",
        met: result.renderedFirstMs <= 15_000,
      },
      {
        metric: "requests per rendered scan (the scan's and the browser's)",
        value: String(result.renderedRequests),
        target: "≤ 210 (60 + 150)",
        met: result.renderedRequests <= 210,
      },
      {
        metric: `the browser's memory at its peak: PSS of its ${result.browserProcesses} processes (RSS sum ${fmt.mb(result.browserPeakRssMb)})`,
        value: fmt.mb(result.browserPeakPssMb),
        target: `≤ ${BROWSER_PSS_TARGET_MB} MB`,
        met: result.browserPeakPssMb <= BROWSER_PSS_TARGET_MB,
      },
    ],
    notes: [
      "The corpus sites (test/fixtures/sites/exemplary, hostile and shop-spa) run in a child process, so the measured process holds only the checker.",
      "Rendered scans go through the same guard as the service's (one shared Chromium, a fresh context and guard proxy per scan, pages one after another); the browser's memory is the proportional set size of its processes, sampled every 100 ms, shared pages split between them (the RSS sum counts them once per process).",
      `Load average (1 min) when the checks finished: ${result.loadAverage}.`,
    ],
  };
}
