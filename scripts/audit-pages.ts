// Lighthouse scores for the pages people land on: `npm run audit:pages [-- --runs=3] [/other/path …]`.
// Audits the build in DIST_DIR (default dist/) at the URL it was built for: a server already
// answering there is used, otherwise one is started with a throwaway database. Exit 1 below 100.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readBuiltUrls } from "../api/site/built-for.ts";
import { auditPages, CATEGORIES, SKIPPED_AUDITS } from "./audit/lighthouse.ts";
import { type Started, startProcess } from "./bench/lib/processes.ts";

const DEFAULT_PAGES = ["/", "/docs/quickstart", "/store", "/checks"];

async function builtSiteUrl(distDir: string): Promise<string> {
  const built = await readBuiltUrls(distDir);
  if (!built) throw new Error(`No build in ${distDir}: run \`npm run build\` first.`);
  return built.siteUrl;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

const distDir = resolve(process.env.DIST_DIR ?? "dist");
const paths = process.argv.slice(2).filter((arg) => arg.startsWith("/"));
const runs = Number(/^--runs=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith("--runs=")) ?? "")?.[1] ?? 1);
let server: Started | undefined;
let dataDir: string | undefined;
try {
  const siteUrl = await builtSiteUrl(distDir);
  if (!(await answers(`${siteUrl}/health`))) {
    dataDir = await mkdtemp(join(tmpdir(), "audit-pages-"));
    const { hostname, port } = new URL(siteUrl);
    server = await startProcess(
      ["api/server.ts"],
      {
        HOST: hostname,
        PORT: port || "80",
        SITE_URL: siteUrl,
        DIST_DIR: distDir,
        DATABASE_URL: `file:${join(dataDir, "service.db")}`,
        LOG_LEVEL: "warn",
      },
      `${siteUrl}/health`,
      siteUrl,
    );
  }
  const urls = (paths.length > 0 ? paths : DEFAULT_PAGES).map((path) => `${siteUrl}${path}`);
  const audits = await auditPages(urls, runs);
  console.log(`| page | ${CATEGORIES.join(" | ")} |\n|---|${CATEGORIES.map(() => "---|").join("")}`);
  for (const audit of audits) {
    console.log(`| ${new URL(audit.url).pathname} | ${CATEGORIES.map((id) => audit.scores[id] ?? "–").join(" | ")} |`);
  }
  for (const reason of Object.values(SKIPPED_AUDITS)) console.log(`\nNot scored: ${reason}.`);
  const short = audits.filter((audit) => CATEGORIES.some((id) => audit.scores[id] !== 100));
  for (const audit of short)
    console.log(`\n${new URL(audit.url).pathname} lost points on:\n  ${audit.failing.join("\n  ")}`);
  if (short.length > 0) process.exitCode = 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await server?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
