import type { CheckCategory } from "../../../../src/schemas/report.ts";
import type { CheckDefinition } from "../check-types.ts";
import { ap2 } from "./agent-interfaces/ap2.ts";
import { authMd } from "./agent-interfaces/auth-md.ts";
import { dnsAid } from "./agent-interfaces/dns-aid.ts";
import { webMcpChecks } from "./agent-interfaces/webmcp.ts";
import { apiHygieneChecks } from "./api/api-hygiene.ts";
import { schemaChecks } from "./api/schemas.ts";
import { a2aCard } from "./capabilities/a2a.ts";
import { authChecks } from "./capabilities/auth.ts";
import { mcpChecks } from "./capabilities/mcp.ts";
import { mcpRegistry } from "./capabilities/mcp-registry.ts";
import { openApiChecks } from "./capabilities/openapi.ts";
import { skillsChecks } from "./capabilities/skills.ts";
import { acpDiscovery } from "./commerce/acp.ts";
import { commerceChecks } from "./commerce/commerce.ts";
import { x402Payments } from "./commerce/x402.ts";
import { contentChecks } from "./content/content.ts";
import { pageChecks } from "./content/pages.ts";
import { catalogChecks } from "./discovery/catalogs.ts";
import { discoveryChecks } from "./discovery/discovery.ts";
import { llmsChecks } from "./discovery/llms.ts";
import { wellKnownChecks } from "./discovery/well-known.ts";
import { wellKnownConsistency } from "./discovery/well-known-consistency.ts";
import { headings } from "./page-structure/headings.ts";
import { imageAlternatives } from "./page-structure/images.ts";
import { semanticLandmarks } from "./page-structure/landmarks.ts";
import { contentUsage } from "./policy/aipref.ts";
import { botPolicyChecks } from "./policy/bot-policy.ts";
import { reachabilityChecks } from "./reachability/reachability.ts";
import { renderedChecks } from "./rendered/rendered-checks.ts";

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
  dnsAid,
  ...contentChecks,
  ...pageChecks,
  semanticLandmarks,
  headings,
  imageAlternatives,
  ...botPolicyChecks,
  contentUsage,
  ...openApiChecks,
  ...mcpChecks,
  a2aCard,
  mcpRegistry,
  ...skillsChecks,
  ...webMcpChecks,
  ...authChecks,
  authMd,
  ...apiHygieneChecks,
  ...schemaChecks,
  ...wellKnownChecks,
  wellKnownConsistency,
  ...commerceChecks,
  acpDiscovery,
  x402Payments,
  ap2,
  ...renderedChecks,
]);
