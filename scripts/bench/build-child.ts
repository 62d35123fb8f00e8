// Runs one build in its own process and prints its wall time and peak memory (its own, and that of
// the processes it starts: Pagefind's indexer, esbuild) as JSON:
//   node scripts/bench/build-child.ts <contentRoot> <outDir>
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { buildSite } = await import("../../src/build/build-site-fs.ts");
const { watchChildrenPeakMemory } = await import("./lib/child-memory.ts");
const [contentRoot, outDir] = process.argv.slice(2) as [string, string];
const childrenPeak = watchChildrenPeakMemory();
const started = performance.now();
const report = await buildSite(
  {
    root: process.cwd(),
    contentRoot,
    outDir,
    siteUrl: "http://127.0.0.1:4321",
    docsUrl: "http://127.0.0.1:4321",
    apiOrigin: "http://127.0.0.1:4321",
  },
  { quiet: true },
);
console.log(
  JSON.stringify({
    wallMs: Math.round(performance.now() - started),
    maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    childrenPeakMb: Math.round(childrenPeak.stop() / 1024),
    htmlPages: report.htmlPages,
    routes: Object.keys(report.manifest.routes).length,
  }),
);

export {};
