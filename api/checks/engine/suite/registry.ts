import type { CheckCategory } from "../../../../src/schemas/report.ts";
import type { CheckDefinition } from "../check-types.ts";
import { apiHygieneChecks } from "./api-hygiene.ts";
import { botPolicyChecks } from "./bot-policy.ts";
import { authChecks } from "./capabilities-auth.ts";
import { mcpChecks } from "./capabilities-mcp.ts";
import { openApiChecks } from "./capabilities-openapi.ts";
import { skillsChecks } from "./capabilities-skills.ts";
import { commerceChecks } from "./commerce.ts";
import { contentChecks } from "./content.ts";
import { pageChecks } from "./content-pages.ts";
import { discoveryChecks } from "./discovery.ts";
import { catalogChecks } from "./discovery-catalogs.ts";
import { llmsChecks } from "./discovery-llms.ts";
import { reachabilityChecks } from "./reachability.ts";
import { schemaChecks } from "./schemas.ts";
import { wellKnownChecks } from "./well-known.ts";
import { wellKnownConsistency } from "./well-known-consistency.ts";

export { SUITE_VERSION } from "./version.ts";

export const CATEGORY_TITLES: Readonly<Record<CheckCategory, string>> = {
  reachability: "Reachability & hygiene",
  discovery: "Discovery",
  content: "Content for LLMs",
  "bot-policy": "Bot policy",
  capabilities: "Capabilities & auth",
  "api-hygiene": "API hygiene & consistency",
  commerce: "Commerce",
};

export const CHECK_SUITE: readonly CheckDefinition[] = Object.freeze([
  ...reachabilityChecks,
  ...discoveryChecks,
  ...llmsChecks,
  ...catalogChecks,
  ...contentChecks,
  ...pageChecks,
  ...botPolicyChecks,
  ...openApiChecks,
  ...mcpChecks,
  ...skillsChecks,
  ...authChecks,
  ...apiHygieneChecks,
  ...schemaChecks,
  ...wellKnownChecks,
  wellKnownConsistency,
  ...commerceChecks,
]);
