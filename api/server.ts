import { createServer } from "node:http";
import { toNodeHandler } from "h3/node";
import { createApp } from "./app.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createLogger } from "./log.ts";
import { loadSiteFiles } from "./static/site-files.ts";

// Entry point: configuration → build files → app → listen; SIGTERM drains in-flight requests.
let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const log = createLogger(config.logLevel);
const site = await loadSiteFiles(config.distDir);
if (!site) log.warn({ dist: config.distDir }, "no build found: static URLs answer 503 until `npm run build` has run");

const app = createApp({ config, log, site });
const server = createServer(toNodeHandler(app));
server.keepAliveTimeout = 5_000;
server.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  log.info({ port, site: config.siteUrl }, "listening");
  console.log(`Serving ${config.siteUrl} (listening on http://${config.host}:${port})`);
});

function shutdown(signal: string): void {
  log.info({ signal }, "shutting down: finishing in-flight requests");
  server.close(() => {
    log.info("stopped");
    process.exit(0);
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}
process.once("SIGTERM", () => shutdown("SIGTERM"));
process.once("SIGINT", () => shutdown("SIGINT"));
