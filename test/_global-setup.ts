import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { compileEntries, type EntryName } from "./_compiled-entries.ts";

export interface BuiltSite {
  distDir: string;
  siteUrl: string;
  /** The port SITE_URL names: tests that run a real server listen here. */
  port: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** One build per test worker, each for its own port (test/helpers/test-build.ts picks the worker's). */
    sites: BuiltSite[];
    /** The compiled server and CLIs (test/_compiled-entries.ts), by name: what test/helpers/entry.ts starts. */
    entries: Record<EntryName, string>;
  }
}

/** `npm run build` for one port, in its own process so that the builds run side by side. */
function buildFor(index: number, port: number): Promise<BuiltSite> {
  const siteUrl = `http://127.0.0.1:${port}`;
  const distDir = join(process.cwd(), "test-results", `dist-${index + 1}`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ASTRO_TELEMETRY_DISABLED: "1",
    SITE_URL: siteUrl,
    DIST_DIR: distDir,
  };
  for (const name of ["DOCS_URL", "API_ORIGIN", "NODE_ENV"]) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--max-old-space-size=1024", "scripts/build.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve({ distDir, siteUrl, port }) : reject(new Error(`The test build failed:\n${output}`)),
    );
  });
}

/** The lowest port the kernel hands out for `listen(0)` (Linux's ip_local_port_range; 32768 elsewhere). */
function lowestEphemeralPort(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/**
 * Free ports below the ephemeral range: a build's port stays unbound until a file serves it, and a port the kernel
 * can hand to any `listen(0)` (a fixture site, a fake, an SMTP server) could be taken meanwhile by another worker.
 */
async function portsNoListenZeroTakes(count: number): Promise<number[]> {
  const ceiling = lowestEphemeralPort();
  const floor = Math.max(1024, ceiling - 8000);
  const ports: number[] = [];
  for (let tries = 0; ports.length < count && tries < 1000; tries += 1) {
    const port = floor + Math.floor(Math.random() * (ceiling - floor));
    if (!ports.includes(port) && (await canListen(port))) ports.push(port);
  }
  if (ports.length < count) throw new Error(`No ${count} free ports below ${ceiling} for the test builds.`);
  return ports;
}

async function buildAll(workers: number): Promise<BuiltSite[]> {
  const ports = await portsNoListenZeroTakes(workers);
  return Promise.all(ports.map((port, index) => buildFor(index, port)));
}

// Every test project runs this setup; they share the builds through the main process's global.
const shared = globalThis as typeof globalThis & {
  __builtSites?: Promise<BuiltSite[]>;
  __entries?: Promise<Record<EntryName, string>>;
};

/**
 * Builds the real site once for each test worker, each for a port no other process holds, so that end-to-end files
 * which serve a build on the port it was made for can run side by side.
 */
export default async function setup(project: TestProject): Promise<void> {
  shared.__builtSites ??= buildAll(project.globalConfig.maxWorkers);
  shared.__entries ??= compileEntries(join(process.cwd(), "test-results", "entries"));
  project.provide("sites", await shared.__builtSites);
  project.provide("entries", await shared.__entries);
}
