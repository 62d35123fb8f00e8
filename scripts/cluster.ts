// `npm run cluster [-- --instances N --port P --no-build --data-dir D]`: the scale-out deployment of
// the runbook on one machine, in one command. It builds the site for the front's URL, starts sqld
// (scripts/lib/sqld.ts) requiring a signed token, N API instances on it (default 2), each kept
// running (scripts/lib/supervisor.ts), and nginx as the static front with the build's own rules
// (dist/nginx/routes.conf), prints where to look, and stops everything on Ctrl-C.
import { randomBytes } from "node:crypto";
import { closeSync, openSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { defineCommand, runMain } from "citty";
import { createSecretFile, readSecretFile } from "../api/platform/secret-file.ts";
import { startCommand } from "./bench/lib/processes.ts";
import { BUILD_NODE_ARGS } from "./lib/build-node-args.ts";
import { type RunningSqld, startSqld } from "./lib/sqld.ts";
import { sqldAuthIn } from "./lib/sqld-auth.ts";
import { apiBodyLimits, startStaticFront } from "./lib/static-front.ts";
import { Supervised } from "./lib/supervisor.ts";

/**
 * A key every instance must share (a remote database needs SERVER_SECRET and BOT_SIGNING_KEY): the environment's,
 * or 32 random bytes kept in a 0600 file between runs.
 */
function sharedKey(dataDir: string, variable: "SERVER_SECRET" | "BOT_SIGNING_KEY", fileName: string): string {
  const fromEnvironment = process.env[variable];
  if (fromEnvironment) return fromEnvironment;
  const file = join(dataDir, fileName);
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
    build: {
      type: "boolean",
      default: true,
      description: "Build the site first (--no-build: serve the build in DIST_DIR, made for the front's URL)",
    },
    "data-dir": { type: "string", default: "data/cluster", description: "sqld's data, the shared keys and the logs" },
  },
  run: async ({ args }) => {
    const instances = Number(args.instances);
    const port = Number(args.port);
    if (!Number.isInteger(instances) || instances < 1 || instances > 16) throw new Error("--instances must be 1 to 16");
    const siteUrl = `http://127.0.0.1:${port}`;
    const distDir = resolve(process.env.DIST_DIR ?? "dist");
    const dataDir = resolve(args["data-dir"]);
    // Not 0700 itself: nginx's workers (nobody, when it starts as root) keep request bodies under it.
    await mkdir(dataDir, { recursive: true });
    await mkdir(join(dataDir, "logs"), { recursive: true, mode: 0o700 });
    if (args.build) await build(siteUrl, distDir);

    const running: { stop: () => Promise<void> }[] = [];
    const stopAll = async () => {
      for (const part of running.reverse()) await part.stop().catch(() => undefined);
    };
    // Listened for from the start: a Ctrl-C while the parts start stops those already running.
    let interrupted = false;
    const stopAsked = new Promise<void>((done) => {
      const stop = () => {
        interrupted = true;
        done();
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
    });
    const unlessInterrupted = () => {
      if (interrupted) throw new Error("interrupted while starting");
    };
    let sqld: RunningSqld | undefined;
    try {
      const auth = sqldAuthIn(join(dataDir, "sqld-auth"));
      sqld = await startSqld({ port: port + 100, dataDir: join(dataDir, "sqld"), authJwtKeyFile: auth.publicKeyFile });
      running.push({ stop: () => sqld?.stop() ?? Promise.resolve() });
      unlessInterrupted();
      const env = {
        SITE_URL: siteUrl,
        DIST_DIR: distDir,
        DATABASE_URL: sqld.url,
        DATABASE_AUTH_TOKEN: auth.token,
        SERVER_SECRET: sharedKey(dataDir, "SERVER_SECRET", "server.secret.json"),
        BOT_SIGNING_KEY: sharedKey(dataDir, "BOT_SIGNING_KEY", "signing-key.json"),
        RATE_LIMIT_STORE: "database",
        TRUST_PROXY: "true",
        LOG_FORMAT: "json",
      };
      const supervised: Supervised[] = [];
      // The instances have process groups of their own: should this process end abruptly, they end too.
      process.once("exit", () => {
        for (const instance of supervised) instance.current?.child.kill("SIGTERM");
      });
      for (let index = 1; index <= instances; index++) {
        const url = `http://127.0.0.1:${port + index}`;
        const logFile = join(dataDir, "logs", `instance-${index}.log`);
        const instance = new Supervised({
          name: `instance ${index}`,
          logFile,
          // Its own process group: a Ctrl-C reaches the cluster, which stops the parts in order.
          launch: async () => {
            const log = openSync(logFile, "a", 0o600);
            try {
              return await startCommand(
                process.execPath,
                ["api/server.ts"],
                { ...env, PORT: String(port + index), HOST: "127.0.0.1" },
                `${url}/health`,
                url,
                log,
                { detached: true },
              );
            } finally {
              closeSync(log);
            }
          },
          say: (line) => console.log(line),
        });
        // One at a time: the first applies the migrations, the others find them applied.
        await instance.start();
        supervised.push(instance);
        running.push(instance);
        unlessInterrupted();
      }
      const front = await startStaticFront({
        distDir,
        instances: supervised.map((_, index) => `127.0.0.1:${port + index + 1}`),
        port,
        workDir: join(dataDir, "nginx"),
        siteUrl,
        // The instances' environment as they see it: theirs on top of this process's (BODY_LIMIT_BYTES).
        bodyLimits: apiBodyLimits({ ...process.env, ...env }),
      });
      running.push(front);
      console.log(
        [
          "",
          `The cluster is up: open ${siteUrl} (nginx: the build's files; requests with an agent token to that token's instance, the rest round-robin).`,
          `  sqld        ${sqld.url}  data ${sqld.dataDir}  (--use-custom-wal libsql-wal, tokens checked with ${auth.publicKeyFile})`,
          ...supervised.map(
            (instance, index) =>
              `  instance ${index + 1}  ${instance.current?.url}  pid ${instance.current?.child.pid}  log ${join(dataDir, "logs", `instance-${index + 1}.log`)}`,
          ),
          `  nginx       ${front.configFile}  logs ${front.workDir}`,
          "A dead instance is reported here and started again (after 1 s, then 2 s, 4 s … up to 30 s).",
          `Staff commands against it: DATABASE_URL=${sqld.url} DATABASE_AUTH_TOKEN=$(cat ${auth.tokenFile}) SERVER_SECRET=… BOT_SIGNING_KEY=… npm run admin -- <command>`,
          "Ctrl-C stops everything.",
        ].join("\n"),
      );
    } catch (error) {
      await stopAll();
      if (interrupted) return;
      throw error;
    }
    await stopAsked;
    console.log("stopping: nginx, the instances, then sqld");
    await stopAll();
  },
});

await runMain(command);
