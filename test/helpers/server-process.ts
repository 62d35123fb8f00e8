import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { entryArgs } from "./entry.ts";
import { testBuild } from "./test-build.ts";

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * Starts the real server (`api/server.ts`, as `npm run serve` does) on the port the test build was
 * made for (or `env.PORT`: a second instance behind the same SITE_URL), and waits until it answers.
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const { distDir, port: builtPort, siteUrl: builtUrl } = testBuild();
  const port = env.PORT ? Number(env.PORT) : builtPort;
  const siteUrl = env.PORT ? `http://127.0.0.1:${port}` : builtUrl;
  let output = "";
  const child = spawn(process.execPath, entryArgs("server"), {
    env: {
      ...process.env,
      NODE_ENV: "test",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: builtUrl,
      DIST_DIR: distDir,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // Starting takes about a second here, but over 10 s when the two shared cores are busy.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${siteUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`The server did not answer within 60 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url: siteUrl,
    process: child,
    output: () => output,
    stop: async (signal = "SIGTERM") => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The real server over a fresh database file in its own temp directory, removed again by `stop`. */
export async function startServerWithOwnDatabase(
  name: string,
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), `${name}-`));
  const server = await startServer({ DATABASE_URL: `file:${join(dir, "service.db")}`, ...env });
  return {
    ...server,
    stop: async (signal) => {
      const code = await server.stop(signal);
      await rm(dir, { recursive: true, force: true });
      return code;
    },
  };
}
