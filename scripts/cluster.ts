// `npm run cluster [-- --instances N --port P]`: the scale-out deployment of the runbook on one
// machine, in one command. It builds the site for the front's URL, starts sqld (scripts/lib/sqld.ts),
// N API instances on it (default 2) and nginx as the static front with the build's own rules
// (dist/nginx/routes.conf), prints where to look, and stops everything on Ctrl-C.
import { randomBytes } from "node:crypto";
import { openSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defineCommand, runMain } from "citty";
import { createSecretFile, readSecretFile } from "../api/platform/secret-file.ts";
import { type Started, startCommand } from "./bench/lib/processes.ts";
import { BUILD_NODE_ARGS } from "./lib/build-node-args.ts";
import { type RunningSqld, startSqld } from "./lib/sqld.ts";
import { startStaticFront } from "./lib/static-front.ts";

/** Everything the cluster keeps between runs: sqld's data, the shared server secret, the logs. */
const DATA_DIR = resolve("data/cluster");

/**
 * A key every instance must share (a remote database needs SERVER_SECRET and BOT_SIGNING_KEY): the environment's,
 * or 32 random bytes kept in a 0600 file between runs.
 */
function sharedKey(variable: "SERVER_SECRET" | "BOT_SIGNING_KEY", fileName: string): string {
  const fromEnvironment = process.env[variable];
  if (fromEnvironment) return fromEnvironment;
  const file = join(DATA_DIR, fileName);
  const ring =
    readSecretFile(file) ?? createSecretFile(file, { current: randomBytes(32).toString("base64url"), previous: [] });
  return ring.current;
}

async function build(siteUrl: string, distDir: string): Promise<void> {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [...BUILD_NODE_ARGS, "scripts/build.ts"], {
    stdio: "inherit",
    env: { ...process.env, SITE_URL: siteUrl, DIST_DIR: distDir },
  });
  const code = await new Promise<number | null>((done) => child.once("exit", done));
  if (code !== 0) throw new Error("the build failed (see above)");
}

const command = defineCommand({
  meta: { name: "cluster", description: "sqld, N API instances and an nginx static front, on this machine" },
  args: {
    instances: { type: "string", default: "2", description: "How many API instances" },
    port: { type: "string", default: process.env.PORT ?? "4321", description: "Where the front listens" },
  },
  run: async ({ args }) => {
    const instances = Number(args.instances);
    const port = Number(args.port);
    if (!Number.isInteger(instances) || instances < 1 || instances > 16) throw new Error("--instances must be 1 to 16");
    const siteUrl = `http://127.0.0.1:${port}`;
    const distDir = resolve(process.env.DIST_DIR ?? "dist");
    await mkdir(join(DATA_DIR, "logs"), { recursive: true });
    await build(siteUrl, distDir);

    const running: { stop: () => Promise<void> }[] = [];
    const stopAll = async () => {
      for (const part of running.reverse()) await part.stop().catch(() => undefined);
    };
    let sqld: RunningSqld | undefined;
    try {
      sqld = await startSqld({ port: port + 100, dataDir: join(DATA_DIR, "sqld") });
      running.push({ stop: () => sqld?.stop() ?? Promise.resolve() });
      const env = {
        SITE_URL: siteUrl,
        DIST_DIR: distDir,
        DATABASE_URL: sqld.url,
        SERVER_SECRET: sharedKey("SERVER_SECRET", "server.secret.json"),
        BOT_SIGNING_KEY: sharedKey("BOT_SIGNING_KEY", "signing-key.json"),
        RATE_LIMIT_STORE: "database",
        TRUST_PROXY: "true",
        LOG_FORMAT: "json",
      };
      const started: Started[] = [];
      for (let index = 1; index <= instances; index++) {
        const instancePort = port + index;
        const log = openSync(join(DATA_DIR, "logs", `instance-${index}.log`), "a");
        // One at a time: the first applies the migrations, the others find them applied.
        const instance = await startCommand(
          process.execPath,
          ["api/server.ts"],
          { ...env, PORT: String(instancePort), HOST: "127.0.0.1" },
          `http://127.0.0.1:${instancePort}/health`,
          `http://127.0.0.1:${instancePort}`,
          log,
        );
        started.push(instance);
        running.push(instance);
      }
      const front = await startStaticFront({
        distDir,
        instances: started.map((instance) => new URL(instance.url).host),
        port,
        workDir: join(DATA_DIR, "nginx"),
      });
      running.push(front);
      console.log(
        [
          "",
          `The cluster is up: open ${siteUrl} (nginx: the build's files, everything else round-robin to the instances).`,
          `  sqld        ${sqld.url}  data ${sqld.dataDir}  (--use-custom-wal libsql-wal)`,
          ...started.map(
            (instance, index) =>
              `  instance ${index + 1}  ${instance.url}  log ${join(DATA_DIR, "logs", `instance-${index + 1}.log`)}`,
          ),
          `  nginx       ${front.configFile}  logs ${join(DATA_DIR, "nginx")}`,
          `Staff commands against it: DATABASE_URL=${sqld.url} SERVER_SECRET=… BOT_SIGNING_KEY=… npm run admin -- <command>`,
          "Ctrl-C stops everything.",
        ].join("\n"),
      );
    } catch (error) {
      await stopAll();
      throw error;
    }
    await new Promise<void>((done) => {
      process.once("SIGINT", done);
      process.once("SIGTERM", done);
    });
    console.log("stopping: nginx, the instances, then sqld");
    await stopAll();
  },
});

await runMain(command);
