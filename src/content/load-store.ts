import { join, resolve, sep } from "node:path";
import { CategoriesFileSchema, ProductFrontmatterSchema, type Category } from "../schemas/product.ts";
import { SlugSchema } from "../schemas/common.ts";
import { fileExists, fileSize, readBytes } from "./files-fs.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownDir, loadYamlFile } from "./load-entries.ts";
import type { ProductDownload, ProductEntry } from "./model.ts";

/** Product ids that would collide with the store's own pages (`/store/buy/…`, `/store/return`). */
const RESERVED_PRODUCT_IDS = new Set(["buy", "return"]);

export function loadCategories(root: string, contentDir: string, issues: ContentIssue[]): Category[] {
  const file = loadYamlFile(root, join(contentDir, "store", "categories.yaml"), CategoriesFileSchema, issues);
  if (!file) return [];
  const ids = new Set<string>();
  file.categories.forEach((category, index) => {
    if (ids.has(category.id)) {
      issues.push({ file: "content/store/categories.yaml", field: `categories.${index}.id`, message: `${category.id} is used twice` });
    }
    ids.add(category.id);
  });
  return [...file.categories].sort((a, b) => a.position - b.position);
}

export function loadProducts(
  root: string,
  contentDir: string,
  privateFilesDir: string,
  categories: readonly Category[],
  issues: ContentIssue[],
): ProductEntry[] {
  const products: ProductEntry[] = [];
  const categoryIds = new Set(categories.map((category) => category.id));
  for (const entry of loadMarkdownDir(root, join(contentDir, "products"), ProductFrontmatterSchema, issues)) {
    if (!SlugSchema.safeParse(entry.name).success || entry.name.includes("/")) {
      issues.push({ file: entry.file, field: "(file)", message: "its name is the product id and must be a slug" });
      continue;
    }
    if (RESERVED_PRODUCT_IDS.has(entry.name)) {
      issues.push({ file: entry.file, field: "(file)", message: `${entry.name} is a store page's address; name the product otherwise` });
      continue;
    }
    if (!categoryIds.has(entry.data.category)) {
      issues.push({ file: entry.file, field: "category", message: `${entry.data.category} is not in content/store/categories.yaml` });
    }
    let download: ProductDownload | null = null;
    if (entry.data.file) {
      const path = resolve(privateFilesDir, entry.data.file);
      if (!path.startsWith(resolve(privateFilesDir) + sep) || !fileExists(path)) {
        issues.push({ file: entry.file, field: "file", message: `${entry.data.file} is not in the private files directory` });
      } else {
        download = readDownload(path, entry.data.file, entry.data.sample, entry.file, issues);
      }
    }
    products.push({ file: entry.file, data: entry.data, body: entry.body, id: entry.name, download });
  }
  return products.sort((a, b) => a.data.position - b.data.position || a.id.localeCompare(b.id));
}

/** The file's size and the excerpt its page shows, read from the file itself so the page cannot promise more. */
function readDownload(
  path: string,
  name: string,
  sample: { from: string; lines: number } | undefined,
  file: string,
  issues: ContentIssue[],
): ProductDownload {
  // Only an excerpt needs the file read: content loads at every start and twice per build.
  if (!sample) return { bytes: fileSize(path), sample: null };
  const bytes = readBytes(path);
  // A final newline ends the last line; it does not start an empty one.
  const lines = bytes.toString("utf8").replace(/\r?\n$/, "").split(/\r?\n/);
  const start = lines.findIndex((line) => line.includes(sample.from));
  if (start === -1) {
    issues.push({ file, field: "sample.from", message: `no line of ${name} contains "${sample.from}"` });
    return { bytes: bytes.length, sample: null };
  }
  const excerpt = lines.slice(start, start + sample.lines);
  return {
    bytes: bytes.length,
    sample: { text: excerpt.join("\n"), firstLine: start + 1, lastLine: start + excerpt.length },
  };
}
