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
 * with esbuild. Node 24 runs the TypeScript sources as they are (type stripping), but resolving and
 * stripping some 400 modules on every start costs: a server start takes 0.85 s of CPU from the
 * compiled module and 1.25 s from the sources (1.6–2.0 s through tsx's loader, which the project
 * used on Node 20), over the ~100 processes a run starts. Tests that exercise the npm scripts
 * themselves (`npm start`, `npm run demo`) run the sources, as a newcomer does.
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
    target: "node24",
    packages: "external",
    logLevel: "error",
  });
  for (const path of await besideTheModule()) await cp(path, join(outDir, basename(path)), { recursive: true });
  return Object.fromEntries(names.map((name) => [name, join(outDir, `${name}.mjs`)])) as Record<EntryName, string>;
}
