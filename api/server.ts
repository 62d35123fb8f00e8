import { createServer } from "node:http";
import { toNodeHandler } from "h3/node";
import { type Config, ConfigError, configurationWarnings, loadConfig } from "./config.ts";
import { withHotRoutes } from "./fast-path/hot-routes.ts";
import { documentHeadersFor } from "./platform/http/document-headers.ts";
import { createLogger } from "./platform/log.ts";
import { StdoutOncePerTurn } from "./platform/log-output.ts";
import { loadAstroHandler } from "./site/astro-handler.ts";
import { builtUrlMismatch, readBuiltUrls } from "./site/built-for.ts";
import { loadSiteFiles } from "./site/site-files.ts";
import { createApp, hotRoutesFor } from "./wiring/app.ts";
import type { AppServices } from "./wiring/app-services.ts";
import { startCommerceJobs, startMonitorJob, startOAuthHousekeeping } from "./wiring/background-jobs.ts";
import { composeServices } from "./wiring/compose.ts";
import { announceStart, describeStart, warmUp } from "./wiring/start-banner.ts";

// Entry point: configuration → database and services → build files → app → listen.
// SIGTERM stops accepting connections, lets in-flight requests finish, then closes the database.
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
// A build names its own URL in every absolute link: served under another, it would misdirect every client.
const wrongUrl = builtUrlMismatch(await readBuiltUrls(config.distDir), config, "the server");
if (wrongUrl) {
  console.error(wrongUrl);
  process.exit(1);
}
// Held until the start banner is out, so a person sees the banner before the first JSON line.
const logOutput = new StdoutOncePerTurn({ held: config.logFormat === "text" });
const log = createLogger(config.logLevel, logOutput);
for (const warning of configurationWarnings(config)) log.warn(warning);
// Small, frequent checkpoints: each copies ~100 ms of writes and its fsync is short. At 500 ms the
// waiting-list write benchmark's p99 was 45–49 ms against 25–30 ms at 100 ms (same runs, paired).
const CHECKPOINT_EVERY_MS = 100;
let services: AppServices;
try {
  services = await composeServices(config, log, { checkpointEveryMs: CHECKPOINT_EVERY_MS });
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const site = await loadSiteFiles(config.distDir, documentHeadersFor(config));
if (!site) log.warn({ dist: config.distDir }, "no build found: static URLs answer 503 until `npm run build` has run");

const pages = await loadAstroHandler(config.distDir);
const app = createApp({ config, log, site, services, pages });
const jobs = startCommerceJobs(services, log);
const monitorJob = startMonitorJob(services, log, config.monitors.intervalMs);
const oauthJob = startOAuthHousekeeping(services, log);
// Hot routes answer their busiest case straight on node:http and hand everything else to the app.
const hotRoutes = hotRoutesFor(services, site, log);
const handler = withHotRoutes(hotRoutes, toNodeHandler(app));
// Its first requests are answered before it listens, so "running" in the banner is true from the start.
await warmUp(handler);
const server = createServer(handler);
server.keepAliveTimeout = 5_000;
const { switches } = await services.monitor.current();
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const state = { port, databasePath: services.database.path, switches, buildFound: Boolean(site) };
  announceStart(config, describeStart(config, state), log);
  logOutput.release();
});

let stopping = false;
function shutdown(signal: string): void {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "shutting down: finishing in-flight requests");
  server.close(async () => {
    await Promise.all([jobs.stop(), monitorJob.stop(), oauthJob.stop(), services.renderer.close()]);
    await services.database.close();
    log.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => {
    log.error("in-flight requests did not finish within 10 s; exiting");
    process.exit(1);
  }, 10_000).unref();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
