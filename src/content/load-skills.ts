import { join } from "node:path";
import { SkillFrontmatterSchema } from "../schemas/skill.ts";
import { parseMarkdownFile } from "./frontmatter.ts";
import { listFiles, projectRelative, readBytes } from "./files-fs.ts";
import { issuesFromZod, type ContentIssue } from "./issues.ts";
import type { SkillEntry } from "./model.ts";

/** `content/skills/<slug>/SKILL.md`; the raw bytes are kept because their digest is published. */
export function loadSkills(root: string, contentDir: string, issues: ContentIssue[]): SkillEntry[] {
  const dir = join(contentDir, "skills");
  const skills: SkillEntry[] = [];
  for (const relativePath of listFiles(dir, ".md")) {
    const file = projectRelative(root, join(dir, relativePath));
    const [slug, name, ...rest] = relativePath.split("/");
    if (!slug || name !== "SKILL.md" || rest.length > 0) {
      issues.push({ file, field: "(file)", message: "skills live at skills/<slug>/SKILL.md" });
      continue;
    }
    const raw = readBytes(join(dir, relativePath));
    let parsed;
    try {
      parsed = parseMarkdownFile(raw.toString("utf8"));
    } catch (error) {
      issues.push({ file, field: "frontmatter", message: `cannot be parsed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}` });
      continue;
    }
    const result = SkillFrontmatterSchema.safeParse(parsed.data);
    if (!result.success) {
      issues.push(...issuesFromZod(file, result.error));
      continue;
    }
    if (result.data.name !== slug) {
      issues.push({ file, field: "name", message: `must equal the directory name (${slug})` });
      continue;
    }
    skills.push({ file, data: result.data, body: parsed.body, slug, raw });
  }
  return skills;
}
