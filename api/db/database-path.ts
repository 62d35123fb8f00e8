import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The file an embedded database's `file:` URL names; `undefined` for a remote database. Its own module, so a
 * command that only needs the path (the command-line checker finding its signing keys) loads no database driver.
 */
export function filePath(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  const rest = url.slice("file:".length);
  return rest.startsWith("//") ? fileURLToPath(url) : resolve(rest.split("?")[0] ?? rest);
}
