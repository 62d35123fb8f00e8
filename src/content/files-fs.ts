import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Every file under `dir` whose name ends with `extension`, as paths relative to `dir` with `/` separators. */
export function listFiles(dir: string, extension: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true, encoding: "utf8" });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.endsWith(extension) && statSync(join(dir, entry)).isFile())
    .map((entry) => entry.split(sep).join("/"))
    .sort();
}

export function readText(path: string): string {
  return readFileSync(path, "utf8");
}

export function readBytes(path: string): Buffer {
  return readFileSync(path);
}

/** A file's size in bytes, without reading it. */
export function fileSize(path: string): number {
  return statSync(path).size;
}

export function fileExists(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export function projectRelative(root: string, path: string): string {
  return relative(root, path).split(sep).join("/");
}
