import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { type RunningCommand, startNpmScript } from "../helpers/npm-process.ts";
import { startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "start-banner-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The environment of a newcomer's shell: no keys, no mail server, nothing of the test run's. */
function newcomerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const name of ["NODE_ENV", "SITE_URL", "DOCS_URL", "STRIPE_SECRET_KEY", "SMTP_URL", "LOG_FORMAT", "LOG_LEVEL"])
    delete env[name];
  return { ...env, ...extra };
}

describe("npm start on a free port", { timeout: 200_000 }, () => {
  let started: RunningCommand;
  let url: string;
  let database: string;
  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    database = join(dir, "service.db");
    // The build goes inside the repository: its server bundle resolves packages from node_modules.
    const env = newcomerEnv({
      PORT: String(port),
      DIST_DIR: "test-results/start-banner-dist",
      DATABASE_URL: `file:${database}`,
    });
    started = await startNpmScript("start", env, `${url}/health`);
  }, 200_000);
  afterAll(async () => {
    await started?.interrupt();
  });

  it("prints a plain-text banner with the URL, the database, what is off and how to turn it on, where mail goes and how to stop, before any JSON log line", async () => {
    const lines = started.stdout().split("\n");
    const first = lines.findIndex((line) => line.startsWith("AgentReady is running at "));
    const last = lines.indexOf("Press Ctrl-C to stop.");
    expect(first, started.stdout()).toBeGreaterThanOrEqual(0);
    const banner = lines.slice(first, last + 1).join("\n");
    expect(lines[first]).toBe(`AgentReady is running at ${url}`);
    expect(banner).toContain(`Database: ${database}`);
    // npm puts node_modules/.bin first on a script's PATH: the pinned Node answers, not the system's.
    expect(banner).toContain(`Runtime:  Node.js ${readFileSync(".node-version", "utf8").trim()}`);
    expect(banner).toMatch(/payments: .*answer 503; turn on with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
    expect(banner).toMatch(/outgoing mail: .*turn on with SMTP_URL/);
    expect(banner).toContain("Mail:     kept in the outbox; `npm run admin -- outbox list` prints each message");
    expect(banner).toContain(`${url}/openapi.json`);
    expect(last).toBeGreaterThan(first);
    // A fresh database logs its migrations before the server listens: that line waits for the banner.
    const firstJson = lines.findIndex((line) => line.startsWith("{"));
    expect(firstJson).toBeGreaterThan(last);
    expect(JSON.parse(lines[firstJson] ?? "")).toMatchObject({ msg: "database migrations applied" });
    expect(lines.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line).msg)).toContain("listening");
  });

  it("stops on Ctrl-C", async () => {
    await started.interrupt();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  });
});

// NODE_ENV=production makes LOG_FORMAT default to json (test/api/config.test.ts).
describe("the banner for log collectors", () => {
  it("is one JSON log line under LOG_FORMAT=json, and nothing on stdout is plain text", async () => {
    const server = await startServer({
      LOG_FORMAT: "json",
      LOG_LEVEL: "info",
      DATABASE_URL: `file:${join(dir, "json.db")}`,
    });
    await server.stop();
    const lines = server.output().trim().split("\n");
    expect(
      lines.every((line) => line.startsWith("{")),
      server.output(),
    ).toBe(true);
    const banners = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "listening");
    expect(banners).toHaveLength(1);
    expect(banners[0]).toMatchObject({
      url: server.url,
      database: join(dir, "json.db"),
      mail: expect.stringContaining("kept in the outbox"),
      off: expect.arrayContaining([expect.objectContaining({ feature: "payments" })]),
    });
  });
});

/** Milliseconds a GET takes to answer in full. */
async function timed(url: string): Promise<number> {
  const started = performance.now();
  await (await fetch(url)).arrayBuffer();
  return performance.now() - started;
}

describe("the banner's word 'running'", () => {
  it("is said once the server answers its pages at full speed, not before its first requests have warmed it", {
    timeout: 120_000,
  }, async () => {
    const { distDir, port, siteUrl } = testBuild();
    // This process's own fetch is warmed first, so its first use is not counted against the server.
    await fetch(`${siteUrl}/health`).catch(() => undefined);
    const child = spawn(process.execPath, ["api/server.ts"], {
      env: {
        ...newcomerEnv({ PORT: String(port), DIST_DIR: distDir, DATABASE_URL: `file:${join(dir, "running.db")}` }),
        SITE_URL: siteUrl,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    const banner = new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes("AgentReady is running at ")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${stdout}`)));
    });
    try {
      await banner;
      // Before, the first on-demand page after the banner took 0.8–2.2 s on this machine, against ~30 ms later.
      const first = await timed(`${siteUrl}/checks`);
      const later = [
        await timed(`${siteUrl}/checks`),
        await timed(`${siteUrl}/checks`),
        await timed(`${siteUrl}/checks`),
      ];
      const typical = later.sort((a, b) => a - b)[1] ?? 0;
      expect(first).toBeLessThan(4 * typical + 500);
      // The server's own requests, named in the access log, were answered before it said "listening".
      const entries = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map(
          (line) => JSON.parse(line) as { msg: string; req_id?: string; path?: string; status?: number; time: number },
        );
      const listening = entries.find((entry) => entry.msg === "listening");
      const own = entries.filter((entry) => entry.msg === "request" && entry.req_id === "start-up-check");
      expect(own.map((entry) => [entry.path, entry.status])).toEqual([
        ["/health", 200],
        ["/checks", 200],
      ]);
      for (const entry of own) expect(entry.time).toBeLessThanOrEqual(listening?.time ?? 0);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });
});
