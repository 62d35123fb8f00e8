// Lighthouse scores for the pages people land on: `npm run audit:pages [-- --runs=3] [/other/path …]`.
// Audits the build in DIST_DIR (default dist/) at the URL it was built for: a server already
// answering there is used, otherwise one is started with a throwaway database, allowed to check
// itself so that a report page exists to audit. Exit 1 below 100.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { readBuiltUrls } from "../api/site/built-for.ts";
import { auditPages, CATEGORIES, NOT_APPLICABLE } from "./audit/lighthouse.ts";
import { type Started, startProcess } from "./bench/lib/processes.ts";

/** Home, a doc page, the store, the checks page and a product page; a report page is added when one can be made. */
const DEFAULT_PAGES = ["/", "/docs/quickstart", "/store", "/checks", "/store/agent-readiness-checklist"];

/**
 * A report page: the service checks itself through its own API (as a visitor's form does) and the
 * report's page is audited. A server this script did not start may refuse its own private address
 * (422 unless CHECKS_ALLOWED_TARGETS lists it); the audit then says so and goes on without it.
 */
async function reportPage(siteUrl: string): Promise<string | undefined> {
  const response = await fetch(`${siteUrl}/api/v1/checks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domain: siteUrl }),
  });
  const body = (await response.json()) as { id?: unknown; detail?: unknown };
  if (response.ok && typeof body.id === "string") return `/checks/${body.id}`;
  console.log(`No report page audited: the service would not check itself (${response.status}: ${body.detail}).`);
  return undefined;
}

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
        CHECKS_ALLOWED_TARGETS: new URL(siteUrl).host,
        LOG_LEVEL: "warn",
      },
      `${siteUrl}/health`,
      siteUrl,
    );
  }
  const report = paths.length > 0 ? undefined : await reportPage(siteUrl);
  const pages = paths.length > 0 ? paths : [...DEFAULT_PAGES, ...(report ? [report] : [])];
  const urls = pages.map((path) => `${siteUrl}${path}`);
  const audits = await auditPages(urls, runs);
  console.log(`| page | ${CATEGORIES.join(" | ")} |\n|---|${CATEGORIES.map(() => "---|").join("")}`);
  for (const audit of audits) {
    console.log(`| ${new URL(audit.url).pathname} | ${CATEGORIES.map((id) => audit.scores[id] ?? "–").join(" | ")} |`);
  }
  for (const [prefix, skipped] of Object.entries(NOT_APPLICABLE))
    if (audits.some((audit) => new URL(audit.url).pathname.startsWith(prefix)))
      for (const [id, reason] of Object.entries(skipped))
        console.log(`\nNot applicable on ${prefix}…: ${id}: ${reason}.`);
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
