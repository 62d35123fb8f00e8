// `npm run bench`: every benchmark, each figure next to its target and (for throughput) a baseline
// measured in the same run. Results are also written to test-results/bench/results.json and, when
// every benchmark ran, into the docs page /docs/operations/benchmarks with an SVG chart.
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { benchApi } from "./bench/api-bench.ts";
import { benchBuild } from "./bench/build-bench.ts";
import { benchChecksSection } from "./bench/checks-section.ts";
import { throughputAndLatencyChart } from "./bench/lib/chart.ts";
import { writeBenchmarksPage } from "./bench/lib/docs-page.ts";
import { loadGenerator } from "./bench/lib/load.ts";
import { type BenchSection, printSection } from "./bench/lib/report.ts";
import { benchMixed, CONCURRENCY } from "./bench/mixed-bench.ts";
import { benchMonitorsSection } from "./bench/monitors-bench.ts";
import { benchScaleOut } from "./bench/scale-bench.ts";
import { benchServing } from "./bench/serve-bench.ts";
import { BUILD_NODE_ARGS } from "./lib/build-node-args.ts";

process.env.ASTRO_TELEMETRY_DISABLED = "1";
const only = process.argv[2];
const port = 4611;
const siteUrl = `http://127.0.0.1:${port}`;
const distDir = "test-results/bench-dist";

const sections: BenchSection[] = [];
let built = false;
/** The site the server benchmarks serve, built once for their port. */
async function ensureBuilt(): Promise<void> {
  if (built) return;
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  await promisify(execFile)(process.execPath, [...BUILD_NODE_ARGS, "scripts/build.ts"], {
    env: { ...process.env, SITE_URL: siteUrl, DIST_DIR: distDir },
  });
  built = true;
}

const benches: Record<string, () => Promise<BenchSection>> = {
  build: () => benchBuild(2000),
  serve: async () => {
    await ensureBuilt();
    return benchServing(distDir, siteUrl, port);
  },
  api: async () => {
    await ensureBuilt();
    return benchApi(distDir, siteUrl, port);
  },
  checks: benchChecksSection,
  scale: async () => {
    await ensureBuilt();
    return benchScaleOut(distDir, siteUrl, port);
  },
  monitors: () => benchMonitorsSection(port + 10),
  mixed: async () => {
    await ensureBuilt();
    const { section, points } = await benchMixed(distDir, siteUrl, port);
    const chart = throughputAndLatencyChart("Mixed workload against a hello-world baseline", CONCURRENCY, [
      {
        name: "service: reads, writes, report reads",
        throughput: points.map((point) => point.withoutChecks.requestsPerSecond),
        p99Ms: points.map((point) => point.withoutChecks.p99Ms),
      },
      {
        name: "service: the same with 1 % readiness checks",
        throughput: points.map((point) => point.mixed.requestsPerSecond),
        p99Ms: points.map((point) => point.mixed.p99Ms),
      },
      {
        name: "node:http hello-world (baseline)",
        throughput: points.map((point) => point.hello.requestsPerSecond),
        p99Ms: points.map((point) => point.hello.p99Ms),
      },
    ]);
    await mkdir("public/benchmarks", { recursive: true });
    await writeFile(CHART_FILE, chart);
    return {
      ...section,
      figure: {
        src: "/benchmarks/mixed.svg",
        alt: "Throughput and p99 latency of the mixed workload, with and without readiness checks, and of the hello-world baseline at 1, 4, 16 and 64 connections",
      },
    };
  },
};
const CHART_FILE = "public/benchmarks/mixed.svg";
const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;

console.log(`# Benchmarks\n\nMachine: ${machine}. Load generator: ${loadGenerator}; servers in their own processes.`);
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  const section = await bench();
  sections.push(section);
  printSection(section);
}
await mkdir("test-results/bench", { recursive: true });
await writeFile(
  "test-results/bench/results.json",
  JSON.stringify({ ran_at: new Date().toISOString(), sections }, null, 2),
);
if (!only)
  console.log(
    `\nWrote ${await writeBenchmarksPage(process.cwd(), { machine, generator: loadGenerator, sections })} and ${CHART_FILE}; run npm run content:check and commit both.`,
  );
