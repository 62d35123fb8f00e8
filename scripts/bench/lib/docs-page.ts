// Writes the results of a full `npm run bench` into the docs, as a versioned page: a page from an
// earlier day is kept on record (the same archive staff use), a same-day re-run replaces it in place.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseMarkdownFile } from "../../../src/content/frontmatter.ts";
import { publishNewVersion } from "../../../src/content/publish-fs.ts";
import { type BenchSection, sectionMarkdown } from "./report.ts";

export const BENCHMARKS_PAGE = "docs/operations/benchmarks";
const KEY = "operations--benchmarks";

export interface BenchmarksReport {
  machine: string;
  generator: string;
  sections: BenchSection[];
}

function body(report: BenchmarksReport): string {
  return [
    "These figures come from `npm run bench`, which runs every benchmark and rewrites this page. Each",
    "throughput figure is a ratio against a baseline measured in the same run on the same machine, so a",
    "faster or slower machine moves both sides; compare ratios, not raw numbers, across machines.",
    "",
    `**Machine:** ${report.machine}. **Load generator:** ${report.generator}. The server under test, the`,
    "baseline servers and the load generator share the machine's cores, so the absolute numbers are a floor.",
    "Each ratio is the median of nine back-to-back pairs of 3-second runs (target and baseline, in",
    "alternating order), and the figures shown are those of the median pair.",
    "",
    "To reproduce, run `npm run bench` (about ten minutes; install `wrk` first for steadier figures), or",
    "`npm run bench -- <name>` for one of `build`, `serve`, `api`, `checks`, `mixed` (which prints but does not",
    "rewrite this page).",
    "",
    ...report.sections.flatMap((section) => [sectionMarkdown(section), ""]),
  ].join("\n");
}

function frontmatter(version: string, publishedAt: string): string {
  return [
    "---",
    "title: Benchmarks",
    "description: Measured throughput, latency, memory and build time of the service, each as a ratio against a baseline measured in the same run, with the machine they ran on.",
    "section: null",
    "position: 190",
    `version: "${version}"`,
    `published_at: "${publishedAt}"`,
    "---",
  ].join("\n");
}

/** Writes the page under `root/content/` and returns its path. */
export async function writeBenchmarksPage(
  root: string,
  report: BenchmarksReport,
  now: Date = new Date(),
): Promise<string> {
  const file = join(root, "content", `${BENCHMARKS_PAGE}.md`);
  let version = `${KEY}-${now.toISOString().slice(0, 10)}`;
  if (existsSync(file)) {
    const previous = String(
      (parseMarkdownFile(await readFile(file, "utf8")).data as Record<string, unknown>).version ?? "",
    );
    if (previous !== version) version = (await publishNewVersion(root, BENCHMARKS_PAGE, now)).version;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${frontmatter(version, now.toISOString())}\n${body(report)}`);
  return file;
}
