import { createHash } from "node:crypto";
import { type CheckContext, defineCheck, fail, judge, notApplicable } from "../../check-types.ts";
import { loadSkillsIndex } from "../../documents/agent-docs.ts";
import { describeState } from "../../documents/document.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { parseFrontmatter } from "../../parse/frontmatter.ts";
import { describeIssues } from "../../parse/json.ts";
import { isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import {
  SKILLS_SCHEMA_V1,
  SKILLS_SCHEMA_V2,
  type SkillEntry,
  SkillEntrySchema,
  SkillFrontmatterSchema,
  SkillsIndexSchema,
} from "../../remote/skills-index.ts";

const SKILLS_SPEC = "https://github.com/cloudflare/agent-skills-discovery-rfc";
const MAX_SKILLS = 5;
const ACCEPT_SKILL = "text/markdown, text/plain;q=0.9, */*;q=0.1";

interface SkillsReading {
  outcome: { status: "missing" | "unusable"; message: string } | null;
  entries: Array<SkillEntry & { resolved: string }>;
  errors: string[];
  cautions: string[];
}

async function readSkillsIndex(context: CheckContext): Promise<SkillsReading> {
  const document = await loadSkillsIndex(context);
  const reading: SkillsReading = { outcome: null, entries: [], errors: [], cautions: [] };
  if (document.state === "missing")
    return {
      ...reading,
      outcome: { status: "missing", message: "no skills index at /.well-known/agent-skills/index.json" },
    };
  if (document.state !== "found" || document.json === null)
    return { ...reading, outcome: { status: "unusable", message: describeState(document, "the skills index") } };
  if (!document.json.ok)
    return {
      ...reading,
      outcome: { status: "unusable", message: `the skills index is not JSON: ${document.json.error}` },
    };
  const index = SkillsIndexSchema.safeParse(document.json.value);
  if (!index.success)
    return { ...reading, outcome: { status: "unusable", message: `the skills index: ${describeIssues(index.error)}` } };
  if (document.legacyPath)
    reading.cautions.push("the index is at the v0.1 path /.well-known/skills/; v0.2.0 uses /.well-known/agent-skills/");
  if (index.data.$schema === SKILLS_SCHEMA_V1) reading.cautions.push("outdated $schema (discovery 0.1.0)");
  else if (index.data.$schema !== SKILLS_SCHEMA_V2) reading.errors.push(`unknown $schema ${index.data.$schema}`);
  if (mediaTypeOf(document.response) !== "application/json")
    reading.cautions.push(`served as ${mediaTypeOf(document.response) || "no Content-Type"}, not application/json`);
  index.data.skills.forEach((raw, position) => {
    const entry = SkillEntrySchema.safeParse(raw);
    if (!entry.success) reading.errors.push(`skills[${position}]: ${describeIssues(entry.error, 2)}`);
    else if (URL.canParse(entry.data.url, document.response.url))
      reading.entries.push({ ...entry.data, resolved: new URL(entry.data.url, document.response.url).href });
    else reading.errors.push(`skills[${position}].url is not a URL reference`);
  });
  return reading;
}

function fetchSkill(context: CheckContext, url: string): Promise<ScanResponse> {
  return context.trail.get(url, { accept: ACCEPT_SKILL });
}

export const skillsIndex = defineCheck({
  id: "skills.index",
  requests: "`/.well-known/agent-skills/index.json` and the legacy path",
  passes: "a valid 0.2.0 index whose listed skills answer; the legacy path or schema is `warn` (outdated, not missing)",
  title: "An agent-skills index lists valid, reachable skills",
  category: "capabilities",
  severity: "medium",
  maturity: "draft",
  profiles: ["docs", "api", "agent"],
  remediation:
    "Serve /.well-known/agent-skills/index.json (application/json) with the 0.2.0 $schema and skills entries {name, type, description, url, digest} whose urls answer 200.",
  prompt:
    'Publish /.well-known/agent-skills/index.json: {"$schema":"https://schemas.agentskills.io/discovery/0.2.0/schema.json","skills":[{"name":"<slug>","type":"skill-md","description":"what it does and when to use it","url":"/.well-known/agent-skills/<slug>/SKILL.md","digest":"sha256:<hex of the file\'s bytes>"}]}, served as application/json.',
  specUrls: [SKILLS_SPEC, "https://agentskills.io/specification"],
  async run(context) {
    const reading = await readSkillsIndex(context);
    if (reading.outcome !== null) return fail(reading.outcome.message);
    const sample = reading.entries.slice(0, MAX_SKILLS);
    const responses = await Promise.all(sample.map((entry) => fetchSkill(context, entry.resolved)));
    const errors = [...reading.errors];
    sample.forEach((entry, position) => {
      const response = responses[position];
      if (response !== undefined && !isSuccess(response))
        errors.push(`${entry.name}: ${new URL(entry.resolved).pathname} → ${response.status}`);
    });
    return judge(
      { problems: errors, cautions: reading.cautions },
      `${reading.entries.length} skill(s) listed, ${sample.length} fetched, all reachable`,
    );
  },
});

/** The slug is the directory that holds SKILL.md (agentskills.io: name must match the directory). */
function slugOf(url: string): string | null {
  const segments = new URL(url).pathname.split("/").filter((segment) => segment !== "");
  return segments.length >= 2 && /^skill\.md$/i.test(segments[segments.length - 1] ?? "")
    ? (segments[segments.length - 2] ?? null)
    : null;
}

export const skillsDigests = defineCheck({
  id: "skills.digests",
  requests: "each `SKILL.md` the index lists (up to 5)",
  passes:
    "the SHA-256 of the served bytes equals the index `digest`; the frontmatter `name` equals the index name and the directory",
  title: "Skill digests match the served bytes, and names agree",
  category: "capabilities",
  severity: "medium",
  maturity: "draft",
  profiles: ["docs", "api", "agent"],
  remediation:
    "Compute each skill's digest from the exact bytes you serve (sha256 of the file) at build time, and keep the frontmatter name equal to the index name and the directory slug.",
  prompt:
    "Regenerate the digest of every skill in /.well-known/agent-skills/index.json as `sha256:` + hex SHA-256 of the served SKILL.md bytes, in the build, and fail CI when they differ. Make each SKILL.md frontmatter `name` equal to its index name and its directory name, and its description equal to the index description.",
  specUrls: [SKILLS_SPEC, "https://agentskills.io/specification"],
  async run(context) {
    const reading = await readSkillsIndex(context);
    if (reading.outcome !== null || reading.entries.length === 0)
      return notApplicable("no valid skills index entries (see skills.index)");
    const errors: string[] = [];
    const cautions: string[] = [];
    const sample = reading.entries.slice(0, MAX_SKILLS);
    for (const entry of sample) {
      const response = await fetchSkill(context, entry.resolved);
      if (!isSuccess(response)) continue;
      const digest = `sha256:${createHash("sha256").update(response.body).digest("hex")}`;
      if (digest !== entry.digest) {
        context.trail.note(response, `served bytes hash to ${digest}, the index says ${entry.digest}`);
        errors.push(
          `${entry.name}: digest mismatch (index ${entry.digest.slice(7, 19)}…, served ${digest.slice(7, 19)}…)`,
        );
      }
      if (entry.type !== "skill-md") continue;
      const frontmatter = parseFrontmatter(response.text);
      if (!frontmatter.ok) {
        errors.push(`${entry.name}: ${frontmatter.error}`);
        continue;
      }
      const parsed = SkillFrontmatterSchema.safeParse(frontmatter.data);
      if (!parsed.success) {
        errors.push(`${entry.name}: frontmatter ${describeIssues(parsed.error, 2)}`);
        continue;
      }
      const slug = slugOf(entry.resolved);
      if (parsed.data.name !== entry.name || (slug !== null && slug !== entry.name)) {
        errors.push(
          `names disagree: index "${entry.name}", frontmatter "${parsed.data.name}", directory "${slug ?? "?"}"`,
        );
      }
      if (parsed.data.description.trim() !== entry.description.trim())
        cautions.push(`${entry.name}: the index description differs from the frontmatter`);
    }
    return judge(
      { problems: errors, cautions },
      `${sample.length} skill(s): digests match the served bytes; names agree`,
    );
  },
});

export const skillsChecks = [skillsIndex, skillsDigests];
