import { resolve, sep } from "node:path";
import type { Content, ProductEntry } from "../../src/content/model.ts";

/**
 * The store's view of `content/products/*.md`: the only source of prices, stock limits, files and
 * entitlement lengths. Nothing a client sends ever changes these.
 */
export class StoreCatalogue {
  readonly #byId: Map<string, ProductEntry>;

  readonly filesDir: string;

  constructor(
    content: Content,
    /** PRIVATE_FILES_DIR, absolute: item files live here and nowhere public. */
    filesDir: string,
  ) {
    this.filesDir = filesDir;
    this.#byId = new Map(content.products.map((product) => [product.id, product]));
  }

  /** A product buyers can see: published. Unpublished or unknown is `undefined` (404). */
  published(id: string): ProductEntry | undefined {
    const product = this.#byId.get(id);
    return product?.data.published ? product : undefined;
  }

  /**
   * Any product in the catalogue, published or not: a payment already made is fulfilled and its
   * file served even if staff took the product down since.
   */
  any(id: string): ProductEntry | undefined {
    return this.#byId.get(id);
  }

  /**
   * The absolute path of a product's file, or `null` for a fee. Only catalogue file names are ever
   * resolved (they are validated as plain relative names), and the result is checked to lie under
   * the private directory, so no request can reach another file.
   */
  filePath(product: ProductEntry): string | null {
    if (!product.data.file) return null;
    const root = resolve(this.filesDir);
    const path = resolve(root, product.data.file);
    return path.startsWith(root + sep) ? path : null;
  }

  /** The name a browser saves the file under: the file's own base name. */
  fileName(product: ProductEntry): string | null {
    return product.data.file?.split("/").pop() ?? null;
  }
}
