import matter from "gray-matter";
import { parse as parseYaml } from "yaml";

// The `yaml` package's core schema keeps `2026-05-01` a string (js-yaml would make it a Date) and
// rejects duplicate keys, so frontmatter reaches zod exactly as written.
const engines = { yaml: (source: string): object => (parseYaml(source, { schema: "core" }) as object | null) ?? {} };

export interface ParsedMarkdown {
  data: unknown;
  /** The Markdown after the frontmatter, with leading blank lines removed. */
  body: string;
}

export function parseMarkdownFile(source: string): ParsedMarkdown {
  // gray-matter caches by input string; passing options disables that cache, which would otherwise
  // hand back stale objects after a file is edited in the same process.
  const parsed = matter(source, { engines });
  return { data: parsed.data, body: parsed.content.replace(/^\s*\n/, "") };
}

export function parseYamlFile(source: string): unknown {
  return parseYaml(source, { schema: "core" });
}
