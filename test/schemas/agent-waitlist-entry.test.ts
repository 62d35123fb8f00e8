import { describe, expect, it } from "vitest";
import { AgentWaitlistEntrySchema } from "../../src/schemas/requests/agent-waitlist-entry.ts";
import { validateAgainstPublishedSchema } from "../helpers/site.ts";

const valid = {
  agent_name: "Scout",
  agent_type: "research assistant",
  operator_type: "company",
  principal_contact: "ops@example.com",
  use_cases: ["read docs"],
  capabilities: ["read"],
  tools_used: ["curl"],
  consent_version: "privacy-2026-11-01",
};

/** Both the published JSON Schema and the server's zod schema must agree on every case. */
function verdicts(body: unknown): { published: boolean; server: boolean } {
  return {
    published: validateAgainstPublishedSchema("agent-waitlist-entry", body).length === 0,
    server: AgentWaitlistEntrySchema.safeParse(body).success,
  };
}
const accepted = { published: true, server: true };
const rejected = { published: false, server: false };
const times = (n: number, value: string) => Array.from({ length: n }, (_, index) => `${value}${index}`);

describe("the agent waiting-list entry schema", () => {
  it("accepts a complete entry and one with only the required fields", () => {
    expect(verdicts(valid)).toEqual(accepted);
    const { principal_contact: _contact, ...required } = valid;
    expect(verdicts({ ...required, capabilities: [], tools_used: [] })).toEqual(accepted);
  });

  it.each([
    ["agent_name of 200 characters", { agent_name: "a".repeat(200) }, accepted],
    ["agent_name of 201 characters", { agent_name: "a".repeat(201) }, rejected],
    ["agent_name of 200 emoji (counted as characters, not UTF-16 units)", { agent_name: "🤖".repeat(200) }, accepted],
    ["an empty agent_name", { agent_name: "" }, rejected],
    ["agent_type of 201 characters", { agent_type: "t".repeat(201) }, rejected],
    ["20 use cases", { use_cases: times(20, "case") }, accepted],
    ["21 use cases", { use_cases: times(21, "case") }, rejected],
    ["no use cases", { use_cases: [] }, rejected],
    ["a use case of 500 characters", { use_cases: ["u".repeat(500)] }, accepted],
    ["a use case of 501 characters", { use_cases: ["u".repeat(501)] }, rejected],
    ["4 capabilities", { capabilities: ["read", "write", "deploy", "pay"] }, accepted],
    ["5 capabilities", { capabilities: ["read", "write", "deploy", "pay", "read"] }, rejected],
    ["an unknown capability", { capabilities: ["fly"] }, rejected],
    ["50 tools", { tools_used: times(50, "tool") }, accepted],
    ["51 tools", { tools_used: times(51, "tool") }, rejected],
    ["a tool name of 201 characters", { tools_used: ["x".repeat(201)] }, rejected],
    ["an unknown operator type", { operator_type: "robot" }, rejected],
    ["a contact without a dotted domain", { principal_contact: "ops@localhost" }, rejected],
    ["a contact whose last label is one letter", { principal_contact: "ops@example.c" }, rejected],
    ["a contact with two @", { principal_contact: "a@b@example.com" }, rejected],
    ["a contact of 321 characters", { principal_contact: `${"a".repeat(309)}@example.com` }, rejected],
    ["a consent version with a revision", { consent_version: "privacy-2026-11-01.2" }, accepted],
    ["a consent version of another policy", { consent_version: "terms-2026-11-01" }, rejected],
    ["a consent version without a date", { consent_version: "privacy-latest" }, rejected],
    ["an extra property", { referral: "friend" }, rejected],
  ])("%s", (_name, change, expected) => {
    expect(verdicts({ ...valid, ...change })).toEqual(expected);
  });

  it("rejects an entry missing each required field", () => {
    for (const field of [
      "agent_name",
      "agent_type",
      "operator_type",
      "use_cases",
      "capabilities",
      "tools_used",
      "consent_version",
    ]) {
      const { [field as keyof typeof valid]: _removed, ...rest } = valid;
      expect(verdicts(rest), field).toEqual(rejected);
    }
  });
});
