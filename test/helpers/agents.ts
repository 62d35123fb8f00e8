import { expect } from "vitest";
import type { TestApp } from "./app.ts";
import { validateAgainstPublishedSchema } from "./site.ts";

export const PRIVACY_VERSION = "privacy-2026-11-01";

export const validEntry = {
  agent_name: "Scout",
  agent_type: "research assistant",
  operator_type: "company",
  principal_contact: "ops@example.com",
  use_cases: ["read documentation", "compare readiness"],
  capabilities: ["read"],
  tools_used: ["curl", "mcp"],
  consent_version: PRIVACY_VERSION,
};

let counter = 0;
/** Registers an agent through the API (from its own address, so the registration limit is not shared). */
export async function registerAgent(t: TestApp, name = "Scout"): Promise<{ token: string; agent_id: string }> {
  counter++;
  const response = await t.send(
    "POST",
    "/api/v1/agents/register",
    { agent_name: name, agent_type: "assistant", operator_type: "individual" },
    { "x-forwarded-for": `198.51.100.${counter % 250}` },
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { token: string; agent_id: string };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Asserts a problem response: status, code, and the published problem schema. */
export async function expectProblem(
  response: Response,
  status: number,
  code: string,
): Promise<Record<string, unknown>> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = (await response.json()) as Record<string, unknown>;
  expect(validateAgainstPublishedSchema("problem", body)).toEqual([]);
  expect(body).toMatchObject({ status, code });
  return body;
}
