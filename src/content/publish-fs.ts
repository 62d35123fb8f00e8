import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseMarkdownFile } from "./frontmatter.ts";
import { docKey } from "./load-docs.ts";
import { PRIVACY_KEY } from "./load-policies.ts";

export interface PublishResult {
  file: string;
  archived: string;
  previousVersion: string;
  version: string;
  publishedAt: string;
}

export class PublishError extends Error {}

/**
 * Publishes a new version of a doc page or policy: the file as it was last published is kept on
 * record under `content/archive/…` with `superseded_at`, and the current file gets a new `version`
 * and `published_at`. Only those frontmatter lines change, so the author's formatting stays.
 *
 * `target` is `docs/<path>` or `policies/<slug>` (with or without `.md`).
 */
export async function publishNewVersion(root: string, target: string, now: Date = new Date()): Promise<PublishResult> {
  const match = /^(docs|policies)\/(.+?)(?:\.md)?$/.exec(target.replace(/^content\//, ""));
  if (!match) throw new PublishError(`Name a doc page or a policy: docs/<path> or policies/<slug> (got ${target})`);
  const kind = match[1] === "docs" ? "docs" : "policies";
  const name = match[2] ?? "";
  const file = join(root, "content", kind, `${name}.md`);
  if (!existsSync(file)) throw new PublishError(`No such file: content/${kind}/${name}.md`);
  const source = await readFile(file, "utf8");
  const data = parseMarkdownFile(source).data as Record<string, unknown>;
  const previousVersion = String(data.version ?? "");
  const previousPublishedAt = String(data.published_at ?? "");
  if (!previousVersion || !previousPublishedAt) throw new PublishError(`${target} has no version or published_at to supersede`);

  const key = kind === "docs" ? docKey(name, typeof data.key === "string" ? data.key : undefined) : typeof data.key === "string" ? data.key : name;
  const publishedAt = now.toISOString();
  const version = nextVersion(key, publishedAt.slice(0, 10), previousVersion, kind === "policies" && key === PRIVACY_KEY);
  const archived = join(root, "content", "archive", kind, key, `${previousVersion}.md`);
  if (existsSync(archived)) throw new PublishError(`${previousVersion} is already on record at ${archived}`);

  const archivedExtra = kind === "docs" ? [`path: "${name}"`, `superseded_at: "${publishedAt}"`] : [`superseded_at: "${publishedAt}"`];
  await mkdir(dirname(archived), { recursive: true });
  await writeFile(archived, insertFrontmatterLines(source, archivedExtra));
  await writeFile(file, replaceFrontmatterValues(source, { version: `"${version}"`, published_at: `"${publishedAt}"` }));
  return { file, archived, previousVersion, version, publishedAt };
}

/** `<key>-<date>`; a same-day second version is only possible for the privacy policy (`.N`). */
function nextVersion(key: string, date: string, previous: string, allowRevision: boolean): string {
  const base = `${key}-${date}`;
  if (!previous.startsWith(base)) return base;
  if (!allowRevision) {
    throw new PublishError(`${previous} was published today; versions are dated, so the next one can be published tomorrow (or edit this one in place)`);
  }
  const revision = /\.(\d+)$/.exec(previous);
  return `${base}.${revision ? Number(revision[1]) + 1 : 1}`;
}

function frontmatterBounds(source: string): { start: number; end: number } {
  if (!source.startsWith("---")) throw new PublishError("The file has no frontmatter");
  const end = source.indexOf("\n---", 3);
  if (end < 0) throw new PublishError("The frontmatter is not closed");
  return { start: source.indexOf("\n") + 1, end: end + 1 };
}

function replaceFrontmatterValues(source: string, values: Record<string, string>): string {
  const { start, end } = frontmatterBounds(source);
  const lines = source.slice(start, end).split("\n");
  const updated = lines.map((line) => {
    const key = /^([a-z_]+):/.exec(line)?.[1];
    return key && key in values ? `${key}: ${values[key]}` : line;
  });
  return source.slice(0, start) + updated.join("\n") + source.slice(end);
}

function insertFrontmatterLines(source: string, lines: string[]): string {
  const { end } = frontmatterBounds(source);
  return `${source.slice(0, end)}${lines.join("\n")}\n${source.slice(end)}`;
}
