// Runs one build in its own process and prints its wall time and peak memory as JSON:
//   node --import tsx scripts/bench/build-child.ts <contentRoot> <outDir>
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { buildSite } = await import("../../src/build/build-site-fs.ts");
const [contentRoot, outDir] = process.argv.slice(2) as [string, string];
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
    htmlPages: report.htmlPages,
    routes: Object.keys(report.manifest.routes).length,
  }),
);

export {};
