import { cp, mkdir, readdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { build } from "esbuild";

/** The programs tests start as processes, by name: what `npm run serve`, `npm run admin` and `npm run check` run. */
export const ENTRIES = { server: "api/server.ts", admin: "scripts/admin.ts", check: "scripts/check.ts" } as const;
export type EntryName = keyof typeof ENTRIES;

/**
 * What the compiled programs open next to their own module, copied beside them: the migrations
 * (import.meta.dirname) and every worker script under api/ (`new URL("./x.mjs", import.meta.url)`),
 * found rather than listed, so a new worker needs no change here.
 */
async function besideTheModule(): Promise<string[]> {
  const workers = (await readdir("api", { recursive: true })).filter((path) => path.endsWith(".mjs"));
  return ["api/db/migrations", ...workers.map((path) => join("api", path))];
}

/**
 * Compiles each entry once per test run into one ES module (packages stay imports from node_modules),
 * with esbuild, the compiler tsx runs on every start. A server or CLI process the tests start then
 * skips tsx's loader hooks: 1.7 s of CPU per server start instead of 3.3 s, 0.6 s per staff command
 * instead of 1.9 s, over the ~100 processes a run starts. Tests that exercise the npm scripts
 * themselves (`npm start`, `npm run demo`) still go through tsx.
 */
export async function compileEntries(outDir: string): Promise<Record<EntryName, string>> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const names = Object.keys(ENTRIES) as EntryName[];
  await build({
    entryPoints: Object.fromEntries(names.map((name) => [name, ENTRIES[name]])),
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  for (const path of await besideTheModule()) await cp(path, join(outDir, basename(path)), { recursive: true });
  return Object.fromEntries(names.map((name) => [name, join(outDir, `${name}.mjs`)])) as Record<EntryName, string>;
}
