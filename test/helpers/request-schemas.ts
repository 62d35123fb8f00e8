import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { getContent } from "../../src/content/load-content.ts";
import { requestSchemas } from "../../src/lib/json-schemas.ts";
import type { SurveyFile } from "../../src/schemas/survey.ts";
import { validateAgainstPublishedSchema } from "./site.ts";
import { testBuild } from "./test-build.ts";

/** The request bodies' JSON Schemas as the global setup's build published them. */
export const schemasDir = () => join(testBuild().distDir, "client", "schemas");
/** Each request body's zod schema, as the server validates it. */
const content = getContent(process.cwd());
export const requestSchemaMap = new Map<string, z.ZodType>(Object.entries(requestSchemas(content)));

/** The published JSON Schema and the server's zod schema give the same verdict. */
export function verdict(name: string, body: unknown): "accepted" | "rejected" | "they disagree" {
  const published = validateAgainstPublishedSchema(name, body).length === 0;
  const schema = requestSchemaMap.get(name);
  if (!schema) throw new Error(`no request schema ${name}`);
  const server = schema.safeParse(body).success;
  if (published !== server) return "they disagree";
  return server ? "accepted" : "rejected";
}

/**
 * Where the published request schemas give a string this `pattern`, as `<schema>#/<pointer>`, with
 * `*` for an array's items (so the list is every field that takes such a value, wherever it sits).
 */
export function patternLocations(pattern: string): string[] {
  const found: string[] = [];
  const walk = (name: string, value: unknown, pointer: string[]) => {
    if (Array.isArray(value)) {
      for (const item of value) walk(name, item, pointer);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, member] of Object.entries(value)) {
      if (key === "pattern" && member === pattern) found.push(`${name}#/${pointer.join("/")}`);
      const next =
        key === "properties" || key === "anyOf" || key === "oneOf"
          ? pointer
          : key === "items"
            ? [...pointer, "*"]
            : [...pointer, key];
      walk(name, member, next);
    }
  };
  for (const name of requestSchemaMap.keys())
    walk(name, JSON.parse(readFileSync(join(schemasDir(), `${name}.json`), "utf8")), []);
  return [...new Set(found)].sort();
}

/** A valid agent waiting-list entry and a valid people's signup, for tests to vary one field of. */
export const entry = {
  agent_name: "Scout",
  agent_type: "assistant",
  operator_type: "company",
  use_cases: ["read docs"],
  capabilities: ["read"],
  tools_used: [],
  consent_version: "privacy-2026-11-01",
};
export const waitlist = { email: "ada@example.com", consent: true, consent_version: "privacy-2026-11-01" };

/** Every request body that accepts an e-mail address (all six), with the address put in its place. */
export const EMAIL_FIELDS: Record<string, (email: string) => [string, unknown]> = {
  "waitlist#/email": (email) => ["waitlist", { ...waitlist, email }],
  "agent-registration#/principal_contact": (email) => [
    "agent-registration",
    { agent_name: "Scout", agent_type: "assistant", operator_type: "company", principal_contact: email },
  ],
  "agent-waitlist-entry#/principal_contact": (email) => [
    "agent-waitlist-entry",
    { ...entry, principal_contact: email },
  ],
  "store-checkout#/email": (email) => ["store-checkout", { email }],
  "check-checkout#/email": (email) => ["check-checkout", { purchase: "unlock", email }],
  "monitor-input#/email": (email) => ["monitor-input", { domain: "example.com", email }],
};

/** Answers to every question of the survey, each a valid choice. */
export function validSurveyAnswers(survey: SurveyFile = content.survey): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of survey.questions) {
    if (question.type === "single") answers[question.id] = question.options[0]?.value;
    if (question.type === "multiple") answers[question.id] = [question.options[0]?.value];
    if (question.type === "text") answers[question.id] = "We read llms.txt first.";
    if (question.type === "scale") answers[question.id] = question.min;
    if (question.type === "boolean") answers[question.id] = true;
  }
  return answers;
}

/** A whole valid survey answer. */
export const surveyAnswer = (answers: Record<string, unknown> = validSurveyAnswers()) => ({
  survey_version: content.survey.version,
  answers,
});
