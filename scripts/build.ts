// Builds the static site and the route manifest: `npm run build`.
process.env.ASTRO_TELEMETRY_DISABLED = "1";
const { ConfigError, loadBuildConfig } = await import("../api/config.ts");
const { buildSite, ContentInvalidError } = await import("../src/build/build-site-fs.ts");

try {
  const config = loadBuildConfig();
  const report = await buildSite(config);
  const routes = Object.keys(report.manifest.routes).length;
  console.log(
    `Built ${report.htmlPages} HTML pages and ${report.artifacts} other files (${routes} routes) for ${config.siteUrl} in ${(report.durationMs / 1000).toFixed(1)} s.`,
  );
} catch (error) {
  if (error instanceof ContentInvalidError || error instanceof ConfigError) {
    console.error(error.message);
    if (error instanceof ContentInvalidError)
      console.error("\nFix these, or run `npm run content:check` to list them again.");
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exitCode = 1;
}

export {};
