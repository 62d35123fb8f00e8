import { z } from "zod";

/** An Agent Skills name: 1–64 of [a-z0-9-], no leading, trailing or doubled hyphen (agentskills.io). */
export const SkillNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be 1-64 lower-case letters, digits and single hyphens");

/**
 * The `metadata` key holding the questions a skill answers, separated by ` | `: the AI catalog lists
 * them as the skill's `representativeQueries` (ARD wants 2 to 5 per entry).
 */
export const CATALOG_QUERIES_KEY = "catalog-queries";

/** The questions in a skill's `catalog-queries` metadata; `[]` without it. */
export function catalogQueries(skill: Pick<SkillFrontmatter, "metadata">): string[] {
  const value = skill.metadata?.[CATALOG_QUERIES_KEY];
  return value === undefined ? [] : value.split(" | ").map((query) => query.trim());
}

/** Frontmatter of `content/skills/<slug>/SKILL.md`: exactly the keys of the agentskills.io spec. */
export const SkillFrontmatterSchema = z
  .strictObject({
    /** Must equal the directory name (the slug). */
    name: SkillNameSchema,
    /** What the skill does and when to use it; 1–1024 characters. */
    description: z.string().min(1).max(1024),
    license: z.string().min(1).max(200).optional(),
    compatibility: z.string().min(1).max(500).optional(),
    /** Free string pairs; `catalog-queries` (see CATALOG_QUERIES_KEY) feeds the AI catalog. */
    metadata: z.record(z.string(), z.string()).optional(),
    "allowed-tools": z.string().max(1000).optional(),
  })
  .superRefine((value, ctx) => {
    const queries = catalogQueries(value);
    if (
      value.metadata?.[CATALOG_QUERIES_KEY] !== undefined &&
      (queries.length < 2 || queries.length > 5 || queries.includes(""))
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["metadata", CATALOG_QUERIES_KEY],
        message: "must be 2 to 5 questions separated by ' | '",
      });
    }
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
