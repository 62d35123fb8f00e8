import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { freePort } from "../scripts/lib/free-port.ts";

export interface BuiltSite {
  distDir: string;
  siteUrl: string;
  /** The port SITE_URL names: tests that run a real server listen here. */
  port: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    site: BuiltSite;
  }
}

async function buildOnce(): Promise<BuiltSite> {
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  const { buildSite } = await import("../src/build/build-site-fs.ts");
  const root = process.cwd();
  const port = await freePort();
  const siteUrl = `http://127.0.0.1:${port}`;
  const distDir = join(root, "test-results", "dist");
  await buildSite(
    { root, contentRoot: root, outDir: distDir, siteUrl, docsUrl: siteUrl, apiOrigin: siteUrl },
    { quiet: true },
  );
  return { distDir, siteUrl, port };
}

// Every test project runs this setup; they share one build through the main process's global.
const shared = globalThis as typeof globalThis & { __builtSite?: Promise<BuiltSite> };

/** Builds the real site once per test run, for a port no other process holds. */
export default async function setup(project: TestProject): Promise<void> {
  shared.__builtSite ??= buildOnce();
  project.provide("site", await shared.__builtSite);
}
