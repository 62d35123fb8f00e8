import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { violationsOf } from "../../../api/platform/violations.ts";
import { getContent } from "../../../src/content/load-content.ts";
import { requestSchemas } from "../../../src/lib/json-schemas.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

const SCHEMAS = requestSchemas(getContent(process.cwd()));
const PROFILES = ["content", "docs", "api", "agent", "commerce"];

/** zod's own sentences, which say a value is wrong without saying what is right. */
const ZOD_WORDING = /^(Invalid|Too (big|small)|Expected)\b/;

function detailsFor(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success
    ? []
    : violationsOf(result.error).map((violation) => `${violation.pointer} ${violation.detail}`);
}

/** Every property name a body schema declares, in every branch of its unions. */
function propertiesOf(schema: z.ZodType): string[] {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    if (typeof record.properties === "object" && record.properties !== null)
      for (const name of Object.keys(record.properties)) names.add(name);
    for (const key of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(record[key])) for (const n of record[key]) walk(n);
  };
  walk(z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }));
  return [...names];
}

const WRONG_VALUES: unknown[] = [null, true, -1, 1.5, 1e12, "", "bogus", "x".repeat(5000), [], ["bogus"], {}, { a: 1 }];

describe("validation messages", () => {
  it("name what is allowed for every wrong value of every property of every request body, never zod's bare wording", () => {
    const seen: string[] = [];
    for (const [name, schema] of Object.entries(SCHEMAS)) {
      if (name === "mcp-request") continue; // validated by the MCP SDK, which words its own errors
      for (const whole of [5, "x", null, [], {}, { unexpected: 1 }]) seen.push(...detailsFor(schema, whole));
      for (const property of propertiesOf(schema))
        for (const value of WRONG_VALUES) seen.push(...detailsFor(schema, { [property]: value }));
    }
    expect(seen.length).toBeGreaterThan(500);
    expect(seen.filter((detail) => ZOD_WORDING.test(detail.split(" ").slice(1).join(" ")))).toEqual([]);
  });

  it("lists the accepted values of a choice, and reaches into a list to the item that is wrong", () => {
    const checks = SCHEMAS["check-input"];
    const listed = `must be one of ${PROFILES.map((profile) => `"${profile}"`).join(", ")}`;
    expect(detailsFor(checks, { domain: "example.com", profile: "bogus" })).toEqual([
      `#/profile ${listed}, or an array (a JSON list)`,
    ]);
    expect(detailsFor(checks, { domain: "example.com", profile: ["api", "bogus"] })).toEqual([`#/profile/1 ${listed}`]);
    expect(detailsFor(SCHEMAS["check-checkout"], { purchase: "gift" })).toEqual([
      '#/purchase must be one of "unlock", "pack"',
    ]);
  });

  it("states bounds and types in words", () => {
    const schema = z.strictObject({
      count: z.int().min(1).max(5),
      name: z.string().max(3),
      tags: z.array(z.string()).min(1).max(2),
      ratio: z.number().lt(1),
      email: z.email(),
    });
    expect(detailsFor(schema, { count: 9, name: "abcd", tags: [], ratio: 1, email: "nobody" })).toEqual([
      "#/count must be at most 5",
      "#/name must be at most 3 characters long",
      "#/tags must have at least 1 item",
      "#/ratio must be less than 1",
      "#/email must be a valid e-mail address",
    ]);
    expect(detailsFor(schema, { count: 1.5, name: 7, tags: ["a", "b", "c"], ratio: "1" })).toEqual([
      "#/count must be an integer",
      "#/name must be a string",
      "#/tags must have at most 2 items",
      "#/ratio must be a number",
      "#/email is required",
    ]);
  });
});

describe("a 422 over HTTP", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("tells an agent that sent an unknown profile which profiles there are", async () => {
    const response = await t.send("POST", "/api/v1/checks", { domain: "example.com", profile: "bogus" });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { pointer: string; detail: string }[] };
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors[0]?.pointer).toBe("#/profile");
    for (const profile of PROFILES) expect(problem.errors[0]?.detail).toContain(`"${profile}"`);
  });
});
