import { join, resolve, sep } from "node:path";
import { CategoriesFileSchema, ProductFrontmatterSchema, type Category } from "../schemas/product.ts";
import { SlugSchema } from "../schemas/common.ts";
import { fileExists } from "./files-fs.ts";
import type { ContentIssue } from "./issues.ts";
import { loadMarkdownDir, loadYamlFile } from "./load-entries.ts";
import type { ProductEntry } from "./model.ts";

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
    if (!categoryIds.has(entry.data.category)) {
      issues.push({ file: entry.file, field: "category", message: `${entry.data.category} is not in content/store/categories.yaml` });
    }
    if (entry.data.file) {
      const path = resolve(privateFilesDir, entry.data.file);
      if (!path.startsWith(resolve(privateFilesDir) + sep) || !fileExists(path)) {
        issues.push({ file: entry.file, field: "file", message: `${entry.data.file} is not in the private files directory` });
      }
    }
    products.push({ file: entry.file, data: entry.data, body: entry.body, id: entry.name });
  }
  return products.sort((a, b) => a.data.position - b.data.position || a.id.localeCompare(b.id));
}
