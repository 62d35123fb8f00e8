import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { issuesFromZod } from "../../src/content/issues.ts";
import { ArticleFrontmatterSchema } from "../../src/schemas/article.ts";
import { DocFrontmatterSchema } from "../../src/schemas/doc.ts";
import { PolicyFrontmatterSchema } from "../../src/schemas/policy.ts";
import { ProductFrontmatterSchema } from "../../src/schemas/product.ts";
import { RecordFrontmatterSchema } from "../../src/schemas/record.ts";
import { ResourceFrontmatterSchema } from "../../src/schemas/resource.ts";
import { RoadmapFileSchema } from "../../src/schemas/roadmap.ts";
import { PricingFileSchema, ServiceSettingsSchema } from "../../src/schemas/service.ts";
import { SkillFrontmatterSchema } from "../../src/schemas/skill.ts";
import { SurveyFileSchema } from "../../src/schemas/survey.ts";

function problems(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : issuesFromZod("f.md", result.error).map((issue) => `${issue.field}: ${issue.message}`);
}

const at = "2026-11-01T09:00:00.000Z";
const cases: { name: string; schema: z.ZodType; good: unknown; bad: unknown; expected: string[] }[] = [
  {
    name: "doc",
    schema: DocFrontmatterSchema,
    good: { title: "T", description: "D", section: null, position: 0, version: "a--b-2026-11-01", published_at: at },
    bad: { title: "", description: "D", section: 3, position: -1, version: "v1", published_at: "yesterday" },
    expected: [
      "title: must be 1 to 120 characters long",
      "section: Invalid input: expected string, received number",
      "position: Too small: expected number to be >=0",
      "version: must look like <page key>-YYYY-MM-DD",
      "published_at: must be an ISO 8601 UTC time with milliseconds, e.g. 2026-11-01T09:00:00.000Z",
    ],
  },
  {
    name: "policy",
    schema: PolicyFrontmatterSchema,
    good: {
      title: "P",
      description: "D",
      version: "privacy-2026-11-01.1",
      effective_at: "2026-11-01",
      published_at: at,
      placements: ["waitlist"],
    },
    bad: {
      title: "P",
      description: "D",
      version: "privacy",
      effective_at: "1 Nov",
      published_at: at,
      placements: ["sidebar"],
    },
    expected: [
      "version: must look like <key>-YYYY-MM-DD",
      "effective_at: must be a date like 2026-11-01",
      "placements.0: must be one of: waitlist, agent-waitlist, agent-register, checkout, checks, footer",
    ],
  },
  {
    name: "article",
    schema: ArticleFrontmatterSchema,
    good: { title: "A", description: "D", author: "Ada", published_at: at },
    bad: { title: "A", description: "D", published_at: at, tags: ["Not A Slug"] },
    expected: ["author: is required", "tags.0: must be lower-case letters and digits joined by single hyphens"],
  },
  {
    name: "record",
    schema: RecordFrontmatterSchema,
    good: {
      title: "R",
      description: "D",
      published_at: at,
      claims: [{ id: "c", statement: "S", label: "observed", evidence: [{ kind: "test", summary: "s" }] }],
    },
    bad: {
      title: "R",
      description: "D",
      published_at: at,
      claims: [{ id: "c", statement: "S", label: "true", evidence: [{ kind: "rumour", summary: "" }] }],
    },
    expected: [
      "claims.0.label: must be one of: observed, inferred, proposed, unknown, superseded",
      "claims.0.evidence.0.kind: must be one of: measurement, document, test, observation, statement, source-code",
      "claims.0.evidence.0.summary: must be 1 to 1000 characters long",
    ],
  },
  {
    name: "resource",
    schema: ResourceFrontmatterSchema,
    good: {
      title: "R",
      description: "D",
      kind: "guide",
      url: "https://example.com",
      assessment: { method: "m", date: "2026-01-01", result: "r" },
    },
    bad: { title: "R", description: "D", kind: "guide", url: "https://example.com" },
    expected: ["assessment: is required"],
  },
  {
    name: "product",
    schema: ProductFrontmatterSchema,
    good: {
      title: "P",
      description: "D",
      category: "guides",
      kind: "fee",
      price: { amount: 100, currency: "eur" },
      on_sale: true,
      entitlement_days: 1,
    },
    bad: {
      title: "P",
      description: "D",
      category: "guides",
      kind: "fee",
      price: { amount: 1.5, currency: "eur" },
      on_sale: true,
      entitlement_days: 0,
      file: "../secret.txt",
      file_type: "text/plain",
    },
    expected: [
      "price.amount: must be a whole number of minor units",
      "file: must be a relative path of lower-case names, without ..",
      "entitlement_days: Too small: expected number to be >=1",
    ],
  },
  {
    name: "skill",
    schema: SkillFrontmatterSchema,
    good: { name: "do-things", description: "Does things. Use when asked." },
    bad: { name: "Do--Things", description: "", version: "1" },
    expected: [
      "name: must be 1-64 lower-case letters, digits and single hyphens",
      "description: Too small: expected string to have >=1 characters",
      "version: is not a known field",
    ],
  },
  {
    name: "survey",
    schema: SurveyFileSchema,
    good: {
      version: "agent-survey-2026-11-01",
      title: "S",
      description: "D",
      questions: [{ id: "q", prompt: "Q?", type: "boolean" }],
    },
    bad: {
      version: "2026",
      title: "S",
      description: "D",
      questions: [{ id: "Q 1", prompt: "Q?", type: "single", options: [{ value: "a", label: "A" }] }],
    },
    expected: [
      "version: must look like agent-survey-YYYY-MM-DD",
      "questions.0.id: must be a lower-case identifier (letters, digits, _)",
      "questions.0.options: Too small: expected array to have >=2 items",
    ],
  },
  {
    name: "roadmap",
    schema: RoadmapFileSchema,
    good: {
      updated_at: "2026-11-01",
      items: [{ id: "x", title: "X", description: "D", state: "committed", target_date: "2027-01-01" }],
    },
    bad: { updated_at: "2026-11-01", items: [{ id: "x", title: "X", description: "D", state: "committed" }] },
    expected: ["items.0.target_date: a committed item needs a target date"],
  },
  {
    name: "service settings",
    schema: ServiceSettingsSchema,
    good: {
      name: "S",
      identifier: "dev.s/service",
      version: "1.0.0",
      tagline: "T",
      description: "D",
      contact: { email: "a@b.co", security: "s@b.co" },
      publish: { resources: true, agent_skills: true, mcp_server: true, mcp_server_card: true },
    },
    bad: {
      name: "S",
      identifier: "service",
      version: "1",
      tagline: "T",
      description: "D",
      contact: { email: "nobody", security: "s@b.co" },
      publish: { resources: true, agent_skills: true, mcp_server: true },
    },
    expected: [
      "identifier: must look like com.example/name",
      "version: must be a semantic version like 1.2.0",
      "contact.email: must be an e-mail address like name@example.com",
      "publish.mcp_server_card: is required",
    ],
  },
  {
    name: "pricing",
    schema: PricingFileSchema,
    good: {
      checks: { free_checks_per_day: 1, unlock: { amount: 1, currency: "usd" }, packs: [] },
      monitors: { free_sites: 5 },
    },
    bad: {
      checks: {
        free_checks_per_day: 1,
        unlock: { amount: 1, currency: "usd" },
        packs: [{ id: "p", title: "P", credits: 0, price: { amount: 1, currency: "usd" } }],
      },
      monitors: { free_sites: -1 },
    },
    expected: [
      "checks.packs.0.credits: Too small: expected number to be >=1",
      "monitors.free_sites: Too small: expected number to be >=0",
    ],
  },
];

describe("content schemas", () => {
  it.each(cases)(
    "$name: accepts good frontmatter and explains every problem in bad",
    ({ schema, good, bad, expected }) => {
      expect(problems(schema, good)).toEqual([]);
      expect(problems(schema, bad)).toEqual(expected);
    },
  );
});
