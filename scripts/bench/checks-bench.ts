import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SiteRenderer } from "../../api/checks/engine/render/site-renderer.ts";
import { runReadinessCheck } from "../../api/checks/engine/run-check.ts";
import { defineCheckerSettings } from "../../api/checks/engine/settings.ts";
import { ed25519KeyFromSeed, newEd25519Seed } from "../../api/platform/signing/jwk.ts";
import { crawlerSigner } from "../../api/platform/signing/request-signature.ts";
import { chromiumPath } from "../../src/lib/chromium.ts";
import { listCorpusSites, startCorpusSite } from "../../test/fixtures/sites/corpus.ts";
import { noInternet } from "../../test/fixtures/sites/corpus-run.ts";
import { browserMemory, type ProcessMemory } from "./lib/browser-memory.ts";

const FIXTURE_PROCESS_FLAG = "CHECKS_BENCH_FIXTURE";

/** The corpus sites the benchmark scans: a well-prepared one, and the hostile one (its time must fit the budget). */
const WELL_PREPARED = "exemplary";
const HOSTILE = "hostile";
/** The client-rendered corpus site a rendered scan is timed on: three pages, scripts that build them. */
const CLIENT_RENDERED = "shop-spa";

export interface FixtureAddress {
  origin: string;
  hostPort: string;
}

function isAddress(value: unknown): value is FixtureAddress {
  return typeof value === "object" && value !== null && "origin" in value && "hostPort" in value;
}

function isComplete<Name extends string>(
  received: Partial<Record<Name, FixtureAddress>>,
  names: readonly Name[],
): received is Record<Name, FixtureAddress> {
  return names.every((name) => received[name] !== undefined);
}

/**
 * Corpus sites served by a child process, so the measured process holds only the checker (as in production, where
 * the checked site is elsewhere) and the fixtures' own work (an MCP server, a gzip bomb) is not counted.
 */
export async function startFixtureProcess<Name extends string>(
  names: readonly Name[],
): Promise<Record<Name, FixtureAddress> & { close(): Promise<void> }> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, [FIXTURE_PROCESS_FLAG]: names.join(",") },
    stdio: ["inherit", "inherit", "inherit", "ipc"],
  });
  const addresses = await new Promise<Record<Name, FixtureAddress>>((resolve, reject) => {
    child.once("message", (message: unknown) => {
      const received: Partial<Record<Name, FixtureAddress>> = {};
      for (const name of names) {
        const address: unknown = typeof message === "object" && message !== null ? Reflect.get(message, name) : null;
        if (isAddress(address)) received[name] = address;
      }
      if (isComplete(received, names)) return resolve(received);
      reject(new Error("the fixture process sent no addresses"));
    });
    child.once("exit", (code) => reject(new Error(`the fixture process exited with ${String(code)}`)));
  });
  return {
    ...addresses,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

export interface ChecksBenchResult {
  /** Median wall time of one full check of the well-prepared corpus site (target ≤ 500 ms). */
  singleMedianMs: number;
  singleRuns: number;
  /** Wall time of 20 checks started at once (target ≤ 5,000 ms). */
  concurrentTotalMs: number;
  concurrent: number;
  /** Wall time of one check of the hostile corpus site (within the scan's 15 s budget). */
  hostileMs: number;
  /** Largest request count of any scan above, the hostile one included (budget 60). */
  requestsPerScan: number;
  peakRssMb: number;
  /** Median wall time of one rendered scan (`render: true`) of the client-rendered site, the browser already up. */
  renderedMedianMs: number;
  renderedRuns: number;
  /** The first rendered scan, which launches the browser. */
  renderedFirstMs: number;
  /** Largest request count of a rendered scan: the scan's own and the browser's. */
  renderedRequests: number;
  /** The browser's processes while scans rendered: peak proportional set size, and the RSS sum at that moment. */
  browserPeakPssMb: number;
  browserPeakRssMb: number;
  browserProcesses: number;
  /** The 1-minute load average when the benchmark finished: the machine may be shared. */
  loadAverage: number;
}

const RENDERED_RUNS = 5;

/** Times rendered scans of the client-rendered site and samples the browser's memory every 100 ms meanwhile. */
async function benchRendered(site: FixtureAddress, settings: ReturnType<typeof defineCheckerSettings>) {
  const renderer = new SiteRenderer({ executablePath: chromiumPath(process.env), settings });
  let peak: ProcessMemory = { processes: 0, pssMb: 0, rssMb: 0 };
  const sampler = setInterval(() => {
    const now = browserMemory();
    if (now.pssMb > peak.pssMb) peak = now;
  }, 100);
  const scan = async () => {
    const started = performance.now();
    const result = await runReadinessCheck({ target: site.origin, settings, lookup: noInternet, renderer });
    if (result.render?.status !== "rendered") throw new Error(`the bench could not render: ${result.render?.note}`);
    return { ms: performance.now() - started, requests: result.requests };
  };
  try {
    const first = await scan();
    const runs = [];
    for (let run = 0; run < RENDERED_RUNS; run += 1) runs.push(await scan());
    return {
      renderedMedianMs: Math.round(median(runs.map((run) => run.ms))),
      renderedRuns: RENDERED_RUNS,
      renderedFirstMs: Math.round(first.ms),
      renderedRequests: Math.max(first.requests, ...runs.map((run) => run.requests)),
      browserPeakPssMb: peak.pssMb,
      browserPeakRssMb: peak.rssMb,
      browserProcesses: peak.processes,
    };
  } finally {
    clearInterval(sampler);
    await renderer.close();
  }
}

const RUNS = 10;
/** The documented budget of a rendered scan (docs/checks, "Rendered checks"): its median, and the browser's peak. */
export const RENDERED_SCAN_TARGET_MS = 8_000;
export const BROWSER_PSS_TARGET_MB = 600;
const CONCURRENT = 20;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Times full readiness checks of corpus sites on loopback: the well-prepared one alone and 20 at once, the hostile one. */
export async function benchChecks(): Promise<ChecksBenchResult> {
  const sites = await startFixtureProcess([WELL_PREPARED, HOSTILE, CLIENT_RENDERED]);
  const siteUrl = "https://agent-ready.test";
  // Signed as the service signs, with a key made for the run: signing is part of what a check costs.
  const ring = { current: ed25519KeyFromSeed(newEd25519Seed()), previous: [] };
  const settings = defineCheckerSettings({
    allowedTargets: [sites.exemplary.hostPort, sites.hostile.hostPort, sites["shop-spa"].hostPort],
    siteUrl,
    signer: crawlerSigner(ring, siteUrl),
  });
  const check = (site: FixtureAddress) => runReadinessCheck({ target: site.origin, settings, lookup: noInternet });
  try {
    await check(sites.exemplary);
    const times: number[] = [];
    let requests = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const started = performance.now();
      const result = await check(sites.exemplary);
      times.push(performance.now() - started);
      requests = Math.max(requests, result.requests);
    }
    let started = performance.now();
    const results = await Promise.all(Array.from({ length: CONCURRENT }, () => check(sites.exemplary)));
    const concurrentTotalMs = performance.now() - started;
    started = performance.now();
    const hostile = await check(sites.hostile);
    const hostileMs = performance.now() - started;
    requests = Math.max(requests, hostile.requests, ...results.map((result) => result.requests));
    // Measured after the static figures, so the checking process's peak RSS above is the checker's alone.
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const rendered = await benchRendered(sites["shop-spa"], settings);
    return {
      singleMedianMs: Math.round(median(times)),
      singleRuns: RUNS,
      concurrentTotalMs: Math.round(concurrentTotalMs),
      concurrent: CONCURRENT,
      hostileMs: Math.round(hostileMs),
      requestsPerScan: requests,
      peakRssMb,
      ...rendered,
      loadAverage: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    };
  } finally {
    await sites.close();
  }
}

function printTable(result: ChecksBenchResult): void {
  const rows: Array<[string, string, string]> = [
    [`one check, median of ${result.singleRuns}`, `${result.singleMedianMs} ms`, "≤ 500 ms"],
    [`${result.concurrent} checks at once`, `${result.concurrentTotalMs} ms`, "≤ 5000 ms"],
    ["the hostile site", `${result.hostileMs} ms`, "≤ 15000 ms"],
    ["requests per scan (max)", String(result.requestsPerScan), "≤ 60"],
    ["peak RSS", `${result.peakRssMb} MB`, ""],
    [
      `one rendered scan, median of ${result.renderedRuns}`,
      `${result.renderedMedianMs} ms`,
      `≤ ${RENDERED_SCAN_TARGET_MS} ms`,
    ],
    ["first rendered scan (launches the browser)", `${result.renderedFirstMs} ms`, "≤ 15000 ms"],
    ["requests per rendered scan (max)", String(result.renderedRequests), "≤ 210"],
    [
      `browser memory, peak PSS (${result.browserProcesses} processes)`,
      `${result.browserPeakPssMb} MB`,
      `≤ ${BROWSER_PSS_TARGET_MB} MB`,
    ],
    ["browser memory, RSS sum at that peak", `${result.browserPeakRssMb} MB`, ""],
    ["load average (1 min)", String(result.loadAverage), ""],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  console.log(`${"measure".padEnd(width)}  ${"value".padStart(9)}  target`);
  for (const [name, value, target] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(9)}  ${target}`);
}

const runDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (runDirectly && process.env[FIXTURE_PROCESS_FLAG]) {
  const corpus = listCorpusSites();
  const names = (process.env[FIXTURE_PROCESS_FLAG] ?? "").split(",");
  const serve = (name: string) => {
    const site = corpus.find((candidate) => candidate.name === name);
    if (site === undefined) throw new Error(`no corpus site ${name}`);
    return startCorpusSite(site);
  };
  const sites = await Promise.all(names.map(serve));
  process.send?.(Object.fromEntries(sites.map(({ origin, hostPort }, index) => [names[index], { origin, hostPort }])));
  process.once("SIGTERM", () => void Promise.all(sites.map((site) => site.close())).then(() => process.exit(0)));
} else if (runDirectly) {
  const result = await benchChecks();
  // `npm run bench` runs this file in its own process (so peak RSS is the checker's) and reads JSON.
  if (process.argv.includes("--json")) console.log(JSON.stringify(result));
  else printTable(result);
}
