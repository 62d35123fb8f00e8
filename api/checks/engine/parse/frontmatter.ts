import { parse as parseYaml } from "yaml";
import { isRecord } from "./json.ts";

export type FrontmatterResult =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; error: string };

/**
 * YAML frontmatter of a fetched SKILL.md. Parsed with `yaml` alone on purpose: gray-matter would honour a `---js`
 * fence and evaluate remote JavaScript.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (match === null) return { ok: false, error: "no YAML frontmatter between --- lines at the top" };
  try {
    const data: unknown = parseYaml(match[1] ?? "", { maxAliasCount: 50, prettyErrors: false });
    if (!isRecord(data)) return { ok: false, error: "the frontmatter is not a YAML mapping" };
    return { ok: true, data, body: text.slice(match[0].length) };
  } catch (error) {
    return {
      ok: false,
      error: `the frontmatter is not valid YAML: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`,
    };
  }
}
