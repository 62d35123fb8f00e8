import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Client, createClient } from "@libsql/client";
import { freePort } from "../../scripts/lib/free-port.ts";
import { type RunningSqld, startSqld } from "../../scripts/lib/sqld.ts";
import { apiBodyLimits, startStaticFront } from "../../scripts/lib/static-front.ts";
import { type RunningServer, startServer } from "./server-process.ts";
import { testBuild } from "./test-build.ts";

export interface ScaleOut {
  sqld: RunningSqld;
  /** The API instances, each on its own free port. */
  instances: RunningServer[];
  /** nginx in front of them, serving the build's static files (`<dist>/nginx/routes.conf`); its logs in `workDir`. */
  front: Awaited<ReturnType<typeof startStaticFront>>;
  /** A client of the shared database, for the test's own checks. */
  db: Client;
  /** The settings every instance runs with. */
  env: Record<string, string>;
  /** Starts one more instance on the same database (e.g. to replace one that was killed). */
  addInstance: () => Promise<RunningServer>;
  stop: () => Promise<void>;
}

/**
 * The deployment of the runbook's scale-out section, for one test file: one real sqld, `count` API
 * instances on it (rate limits in the database, behind a trusted proxy) and nginx as the static
 * front. Nothing listens on a fixed port, so files can run side by side.
 */
export async function startScaleOut(name: string, env: Record<string, string> = {}, count = 2): Promise<ScaleOut> {
  const sqld = await startSqld();
  const shared = {
    DATABASE_URL: sqld.url,
    SERVER_SECRET: `scale-out-secret-${name}-`.padEnd(40, "x"),
    BOT_SIGNING_KEY: randomBytes(32).toString("base64url"),
    RATE_LIMIT_STORE: "database",
    TRUST_PROXY: "true",
    ...env,
  };
  const instances: RunningServer[] = [];
  const addInstance = async () => {
    const instance = await startServer({ ...shared, PORT: String(await freePort()) });
    instances.push(instance);
    return instance;
  };
  // All at once, as a rolling deployment may start them: migrations are recorded one transaction each.
  await Promise.all(Array.from({ length: count }, addInstance));
  // Beside sqld's data, not in it (0700): nginx's workers (nobody, under root) keep request bodies there.
  const frontDir = await mkdtemp(join(tmpdir(), "front-"));
  await chmod(frontDir, 0o755);
  const front = await startStaticFront({
    distDir: testBuild().distDir,
    instances: instances.map((instance) => new URL(instance.url).host),
    port: await freePort(),
    workDir: frontDir,
    workers: 1,
    siteUrl: testBuild().siteUrl,
    bodyLimits: apiBodyLimits(shared),
  });
  const db = createClient({ url: sqld.url });
  return {
    sqld,
    instances,
    front,
    db,
    env: shared,
    addInstance,
    stop: async () => {
      db.close();
      await front.stop();
      await Promise.all(instances.map((instance) => instance.stop()));
      await sqld.close();
      await rm(frontDir, { recursive: true, force: true });
    },
  };
}
