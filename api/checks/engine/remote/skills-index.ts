import { z } from "zod";

/** cloudflare/agent-skills-discovery-rfc v0.2.0. */
export const SKILLS_SCHEMA_V2 = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";
export const SKILLS_SCHEMA_V1 = "https://schemas.agentskills.io/discovery/0.1.0/schema.json";

export const SkillNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits joined by single hyphens");

export const SkillEntrySchema = z.object({
  name: SkillNameSchema,
  type: z.enum(["skill-md", "archive"]),
  description: z.string().min(1).max(1024),
  url: z.string().min(1),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/, "must be sha256: followed by 64 lower-case hex digits"),
});
export type SkillEntry = z.infer<typeof SkillEntrySchema>;

export const SkillsIndexSchema = z.object({
  $schema: z.string(),
  skills: z.array(z.unknown()).min(1, "must list at least one skill"),
});

/** SKILL.md frontmatter keys (agentskills.io specification). */
export const SkillFrontmatterSchema = z.object({
  name: SkillNameSchema,
  description: z.string().min(1).max(1024),
  license: z.string().optional(),
  compatibility: z.string().min(1).max(500).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  "allowed-tools": z.string().optional(),
});
