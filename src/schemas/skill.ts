import { z } from "zod";

/** An Agent Skills name: 1–64 of [a-z0-9-], no leading, trailing or doubled hyphen (agentskills.io). */
export const SkillNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be 1-64 lower-case letters, digits and single hyphens");

/** Frontmatter of `content/skills/<slug>/SKILL.md`: exactly the keys of the agentskills.io spec. */
export const SkillFrontmatterSchema = z.strictObject({
  /** Must equal the directory name (the slug). */
  name: SkillNameSchema,
  /** What the skill does and when to use it; 1–1024 characters. */
  description: z.string().min(1).max(1024),
  license: z.string().min(1).max(200).optional(),
  compatibility: z.string().min(1).max(500).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  "allowed-tools": z.string().max(1000).optional(),
});
export type SkillFrontmatter = z.infer<typeof SkillFrontmatterSchema>;

export const SKILLS_DISCOVERY_SCHEMA = "https://schemas.agentskills.io/discovery/0.2.0/schema.json";

/** `/.well-known/agent-skills/index.json` per Agent Skills discovery 0.2.0. */
export const SkillsIndexSchema = z.strictObject({
  $schema: z.literal(SKILLS_DISCOVERY_SCHEMA),
  skills: z.array(
    z.strictObject({
      name: SkillNameSchema,
      type: z.literal("skill-md"),
      description: z.string().max(1024),
      url: z.string(),
      digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    }),
  ),
});
