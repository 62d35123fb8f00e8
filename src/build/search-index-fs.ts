import { readdir } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import * as pagefind from "pagefind";

/** The folder under the build's client directory that holds the search index and its UI. */
export const SEARCH_DIR = "pagefind";

export interface SearchablePage {
  /** The public URL a search result links to (`/docs/store`, not the file `docs/store.html`). */
  url: string;
  html: string;
}

/**
 * Indexes the pages with Pagefind and writes its static bundle (index chunks, WebAssembly, UI) to
 * `<clientDir>/pagefind/`; returns the files written, relative to `clientDir`. Only the part of a
 * page marked `data-pagefind-body` is indexed (the docs article), so navigation never matches.
 */
export async function writeSearchIndex(clientDir: string, pages: readonly SearchablePage[]): Promise<string[]> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  try {
    if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
    for (const page of pages) {
      const added = await index.addHTMLFile({ url: page.url, content: page.html });
      if (added.errors.length > 0) throw new Error(`Pagefind could not index ${page.url}: ${added.errors.join("; ")}`);
    }
    const outputPath = join(clientDir, SEARCH_DIR);
    const written = await index.writeFiles({ outputPath });
    if (written.errors.length > 0) throw new Error(`Pagefind could not write its index: ${written.errors.join("; ")}`);
    const files = await readdir(outputPath, { recursive: true, withFileTypes: true });
    return files
      .filter((entry) => entry.isFile())
      .map((entry) => relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join("/"));
  } finally {
    await pagefind.close();
  }
}
