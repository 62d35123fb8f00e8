import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import * as pagefind from "pagefind";

/** The folder under the build's client directory that holds the search index and its UI. */
export const SEARCH_DIR = "pagefind";

/** The one element of a page that is indexed: the docs article (src/layouts/DocsLayout.astro). */
const SEARCHABLE_START = "<article data-pagefind-body";
const SEARCHABLE_END = "</article>";

export interface SearchIndex {
  /**
   * Queues a built page and returns at once; Pagefind indexes it in its own process while the build
   * goes on. A page without a searchable article is ignored.
   */
  add(url: string, html: string): void;
  /** Waits for every queued page, writes the bundle to `<clientDir>/pagefind/`, returns its files. */
  write(clientDir: string): Promise<string[]>;
  /** Stops Pagefind's process (also after a failed build). */
  close(): Promise<void>;
}

/**
 * A Pagefind index of the docs. Search results link to the public URL (`/docs/store`), not the file.
 * Only the article is handed over, in a minimal document: given the whole page, Pagefind parsed every
 * sidebar link to find it, and indexing the 2,000-page benchmark took 3.5 times as long.
 */
export async function createSearchIndex(): Promise<SearchIndex> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
  const pending: Promise<void>[] = [];
  const problems: string[] = [];
  return {
    add(url, html) {
      const start = html.indexOf(SEARCHABLE_START);
      const end = html.indexOf(SEARCHABLE_END, start);
      if (start === -1 || end === -1) return;
      const content = `<html lang="en"><body>${html.slice(start, end + SEARCHABLE_END.length)}</body></html>`;
      pending.push(
        index.addHTMLFile({ url, content }).then(
          (added) => void problems.push(...added.errors.map((error) => `${url}: ${error}`)),
          (error: unknown) => void problems.push(`${url}: ${String(error)}`),
        ),
      );
    },
    async write(clientDir) {
      await Promise.all(pending);
      if (problems.length > 0) throw new Error(`Pagefind could not index:\n${problems.join("\n")}`);
      const outputPath = join(clientDir, SEARCH_DIR);
      const written = await index.writeFiles({ outputPath });
      if (written.errors.length > 0)
        throw new Error(`Pagefind could not write its index: ${written.errors.join("; ")}`);
      const files = await readdir(outputPath, { recursive: true, withFileTypes: true });
      return files
        .filter((entry) => entry.isFile())
        .map((entry) => relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join("/"));
    },
    async close() {
      await pagefind.close();
    },
  };
}
