import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frontLog } from "../helpers/front-log.ts";
import { type RunningCommand, startNpmScript } from "../helpers/npm-process.ts";
import { testBuild } from "../helpers/test-build.ts";

// `npm run cluster` itself, as an operator runs it (on the worker's build, without building again):
// an instance killed with SIGKILL is reported and started again, and the front sends it requests.
let dir: string;
let cluster: RunningCommand;
const { port, distDir, siteUrl } = testBuild();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cluster-"));
  // nginx's workers (nobody, under root) keep request bodies under the cluster's directory.
  await chmod(dir, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, DIST_DIR: distDir };
  for (const name of ["NODE_ENV", "SITE_URL", "DOCS_URL", "PORT", "DATABASE_URL", "SERVER_SECRET", "BOT_SIGNING_KEY"])
    delete env[name];
  cluster = await startNpmScript("cluster", env, `${siteUrl}/health`, 150_000, [
    "--no-build",
    "--port",
    String(port),
    "--data-dir",
    dir,
  ]);
}, 200_000);
afterAll(async () => {
  await cluster?.interrupt();
  await rm(dir, { recursive: true, force: true });
});

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("npm run cluster", () => {
  it("reports an instance killed with SIGKILL, starts it again, and the front sends it requests once it is back", {
    timeout: 60_000,
  }, async () => {
    // The front answers before the cluster prints where everything is.
    await expect.poll(() => cluster.stdout(), { timeout: 10_000 }).toContain("Ctrl-C stops everything.");
    const listed = /instance 1 {2}(\S+) {2}pid (\d+) {2}log (\S+)/.exec(cluster.stdout());
    expect(listed, cluster.stdout()).not.toBeNull();
    const [, url = "", pid = "", logFile = ""] = listed ?? [];
    expect(logFile).toBe(join(dir, "logs", "instance-1.log"));
    process.kill(Number(pid), "SIGKILL");

    await expect
      .poll(() => cluster.stdout(), { timeout: 10_000 })
      .toContain(`instance 1 (pid ${pid}) was killed by SIGKILL`);
    expect(cluster.stdout()).toContain(`its log: ${logFile}.`);
    expect(cluster.stdout()).toContain("Starting instance 1 again in 1 s.");
    await expect.poll(() => cluster.stdout(), { timeout: 30_000 }).toMatch(/instance 1 is back \(pid \d+\)/);
    const again = Number(/instance 1 is back \(pid (\d+)\)/.exec(cluster.stdout())?.[1]);
    expect(isRunning(again)).toBe(true);
    expect((await fetch(`${url}/health`)).status).toBe(200);

    // nginx left the dead instance out for a while; requests without a token go round-robin.
    const host = new URL(url).host;
    const answeredBy = async () => {
      await fetch(`${siteUrl}/health`);
      const lines = await frontLog(join(dir, "nginx"));
      return lines.some((line) => line.path === "/health" && line.status === 200 && line.upstream === host);
    };
    await expect.poll(answeredBy, { timeout: 20_000, interval: 250 }).toBe(true);

    await cluster.interrupt();
    expect(cluster.stdout()).toContain("stopping: nginx, the instances, then sqld");
    expect(isRunning(again)).toBe(false);
  });
});
