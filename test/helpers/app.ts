import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { H3 } from "h3";
import { type Config, loadConfig } from "../../api/config.ts";
import { createLogger, type Logger } from "../../api/platform/log.ts";
import { loadAstroHandler } from "../../api/site/astro-handler.ts";
import type { SiteFiles } from "../../api/site/site-files.ts";
import { createApp } from "../../api/wiring/app.ts";
import type { AppServices } from "../../api/wiring/app-services.ts";
import { type ComposeOptions, composeServices } from "../../api/wiring/compose.ts";
import { builtSite } from "./site.ts";
import { testBuild } from "./test-build.ts";

export interface TestApp {
  app: H3;
  services: AppServices;
  config: Config;
  dir: string;
  close: () => Promise<void>;
  /** Sends a JSON body (or a raw string) with the given method and headers. */
  send: (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Response>;
}

/** Collects the app's error-level log lines for unexpected failures (a 500, a crashed MCP tool). */
function unhandledErrorTrap() {
  const lines: string[] = [];
  return {
    stream: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
    rethrow() {
      const crashes = lines.splice(0).filter((line) => /"msg":"(unhandled error|MCP tool failed)"/.test(line));
      if (crashes.length > 0) throw new Error(`The app failed unexpectedly (a 500):\n${crashes.join("\n")}`);
    },
  };
}

/**
 * The whole app in-process over a fresh database file in a temp directory and the site built by
 * the global setup. Switches and health are read fresh on every request (TTL 0) unless told otherwise.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    site?: SiteFiles | null;
    /** For the tests of the 500 answer itself: an unhandled error is answered, not thrown at the test. */
    allowUnhandledErrors?: boolean;
    /** A test that reads the log lines itself; the unhandled-error trap then reads only its own. */
    log?: Logger;
    /** Renders the build's on-demand pages too (they need a real socket: serve the app with node:http). */
    withPages?: boolean;
  } & ComposeOptions = {},
): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), "app-"));
  const { siteUrl, distDir } = testBuild();
  const config = loadConfig(
    {
      NODE_ENV: "test",
      SITE_URL: siteUrl,
      DIST_DIR: distDir,
      DATABASE_URL: `file:${join(dir, "service.db")}`,
      TRUST_PROXY: "true",
      LOG_LEVEL: "silent",
      ...options.env,
    },
    process.cwd(),
  );
  const crashes = unhandledErrorTrap();
  const log = options.log ?? createLogger("error", crashes.stream);
  const services = await composeServices(config, log, {
    stateTtlMs: options.stateTtlMs ?? 0,
    ...(options.now ? { now: options.now } : {}),
    ...(options.checkerLookup ? { checkerLookup: options.checkerLookup } : {}),
    ...(options.clientDocumentLookup ? { clientDocumentLookup: options.clientDocumentLookup } : {}),
  });
  const site = options.site === undefined ? await builtSite() : options.site;
  const pages = options.withPages ? await loadAstroHandler(distDir) : null;
  const app = createApp({ config, log, site, services, pages });
  // An unhandled error is a 500 the client sees: it fails the test that caused it, with its stack.
  const request = app.request.bind(app);
  app.request = async (...args) => {
    const response = await request(...args);
    if (!options.allowUnhandledErrors) crashes.rethrow();
    return response;
  };
  const send: TestApp["send"] = async (method, path, body, headers = {}) => {
    const init: RequestInit = {
      method,
      headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    return app.request(path, init);
  };
  return {
    app,
    services,
    config,
    dir,
    send,
    close: async () => {
      await services.renderer.close();
      services.database.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
