// `npm run bench`: every benchmark, each figure next to its target and (for throughput) a baseline
// measured in the same run. Results are also written to test-results/bench/results.json.
import { mkdir, writeFile } from "node:fs/promises";
import { benchBuild } from "./bench/build-bench.ts";
import { benchApi } from "./bench/api-bench.ts";
import { benchChecksSection } from "./bench/checks-section.ts";
import { benchServing } from "./bench/serve-bench.ts";
import { loadGenerator } from "./bench/lib/load.ts";
import { printSection, type BenchSection } from "./bench/lib/report.ts";

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
  await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/build.ts"], { env: { ...process.env, SITE_URL: siteUrl, DIST_DIR: distDir } });
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
};

console.log(`# Benchmarks\n\nMachine: ${(await import("node:os")).cpus().length} cores, Node ${process.version}. Load generator: ${loadGenerator}; servers in their own processes.`);
for (const [name, bench] of Object.entries(benches)) {
  if (only && only !== name) continue;
  const section = await bench();
  sections.push(section);
  printSection(section);
}
await mkdir("test-results/bench", { recursive: true });
await writeFile("test-results/bench/results.json", JSON.stringify({ ran_at: new Date().toISOString(), sections }, null, 2));
