import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runReadinessCheck } from "../../api/checks/engine/run-check.ts";
import { defineCheckerSettings } from "../../api/checks/engine/settings.ts";
import { startAgentReadySite } from "../../test/fixtures/sites/agent-ready.ts";

const FIXTURE_PROCESS_FLAG = "CHECKS_BENCH_FIXTURE";

/**
 * The fixture site runs in a child process, so the measured process holds only the checker (as in production, where
 * the checked site is elsewhere) and the fixture's own work, such as its MCP server, is not counted.
 */
export async function startFixtureProcess(): Promise<{ origin: string; hostPort: string; close(): Promise<void> }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ["--import", "tsx"],
    env: { ...process.env, [FIXTURE_PROCESS_FLAG]: "1" },
    stdio: "inherit",
  });
  const address = await new Promise<{ origin: string; hostPort: string }>((resolve, reject) => {
    child.once("message", (message: unknown) => {
      if (typeof message === "object" && message !== null && "origin" in message && "hostPort" in message) {
        resolve({ origin: String(message.origin), hostPort: String(message.hostPort) });
      } else reject(new Error("the fixture process sent no address"));
    });
    child.once("exit", (code) => reject(new Error(`the fixture process exited with ${String(code)}`)));
  });
  return {
    ...address,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

export interface ChecksBenchResult {
  /** Median wall time of one full check of the agent-ready fixture (target ≤ 1,000 ms). */
  singleMedianMs: number;
  singleRuns: number;
  /** Wall time of 20 checks started at once (target ≤ 5,000 ms). */
  concurrentTotalMs: number;
  concurrent: number;
  /** Largest request count of any scan above (budget 60). */
  requestsPerScan: number;
  peakRssMb: number;
}

const RUNS = 10;
const CONCURRENT = 20;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Times full readiness checks of the agent-ready fixture on loopback: one at a time, then 20 at once. */
export async function benchChecks(): Promise<ChecksBenchResult> {
  const site = await startFixtureProcess();
  const settings = defineCheckerSettings({ allowedTargets: [site.hostPort] });
  const check = () => runReadinessCheck({ target: site.origin, settings });
  try {
    await check();
    const times: number[] = [];
    let requests = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const result = await check();
      times.push(performance.now() - started);
      requests = Math.max(requests, result.requests);
    }
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: CONCURRENT }, check));
    const concurrentTotalMs = performance.now() - started;
    requests = Math.max(requests, ...results.map((result) => result.requests));
    return {
      singleMedianMs: Math.round(median(times)),
      singleRuns: RUNS,
      concurrentTotalMs: Math.round(concurrentTotalMs),
      concurrent: CONCURRENT,
      requestsPerScan: requests,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  } finally {
    await site.close();
  }
}

function printTable(result: ChecksBenchResult): void {
  const rows: Array<[string, string, string]> = [
    [`one check, median of ${result.singleRuns}`, `${result.singleMedianMs} ms`, "≤ 1000 ms"],
    [`${result.concurrent} checks at once`, `${result.concurrentTotalMs} ms`, "≤ 5000 ms"],
    ["requests per scan (max)", String(result.requestsPerScan), "≤ 60"],
    ["peak RSS", `${result.peakRssMb} MB`, ""],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${"measure".padEnd(width)}  ${"value".padStart(9)}  target`);
  for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(9)}  ${target}`);
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runDirectly && process.env[FIXTURE_PROCESS_FLAG] === "1") {
  const site = await startAgentReadySite();
  process.send?.({ origin: site.origin, hostPort: site.hostPort });
  process.once("SIGTERM", () => void site.close().then(() => process.exit(0)));
} else if (runDirectly) {
  const result = await benchChecks();
  // `npm run bench` runs this file in its own process (so peak RSS is the checker's) and reads JSON.
  if (process.argv.includes("--json")) console.log(JSON.stringify(result));
  else printTable(result);
}
