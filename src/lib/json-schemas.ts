import { z } from "zod";
import type { Content } from "../content/model.ts";
import { ArticleIndexSchema, ArticlePageSchema } from "../schemas/article.ts";
import { AiCatalogSchema, ApiCatalogSchema, ApiRootSchema } from "../schemas/catalogs.ts";
import { LegendVersionSchema, PrivacyVersionSchema } from "../schemas/common.ts";
import {
  AgentsDocumentSchema,
  CapabilitiesDocumentSchema,
  PricingDocumentSchema,
  RoadmapDocumentSchema,
  ServiceStateDocumentSchema,
  TermsDocumentSchema,
} from "../schemas/discovery.ts";
import { DocIndexSchema, DocPageSchema } from "../schemas/doc.ts";
import { McpRequestSchema, McpResponseSchema, McpServerCardSchema, ToolIndexSchema } from "../schemas/mcp.ts";
import { PolicyIndexSchema, PolicyPageSchema } from "../schemas/policy.ts";
import { ProblemSchema } from "../schemas/problem.ts";
import { CategoryIndexSchema, ProductIndexSchema } from "../schemas/product.ts";
import { RecordIndexSchema, RecordPageSchema } from "../schemas/record.ts";
import { AgentRegistrationSchema } from "../schemas/requests/agent-registration.ts";
import { buildAgentSurveySchema } from "../schemas/requests/agent-survey.ts";
import { AgentWaitlistEntrySchema } from "../schemas/requests/agent-waitlist-entry.ts";
import type { RequestSchemas } from "../schemas/requests/bodies.ts";
import { CheckCheckoutSchema, CheckInputSchema, CheckRedeemSchema } from "../schemas/requests/checks.ts";
import { AgentMonitorInputSchema, MonitorInputSchema, MonitorLinkSchema } from "../schemas/requests/monitors.ts";
import { StoreCheckoutSchema } from "../schemas/requests/store-checkout.ts";
import { WaitlistSignupSchema } from "../schemas/requests/waitlist.ts";
import { ResourceIndexSchema } from "../schemas/resource.ts";
import {
  AgentRegisteredSchema,
  AgentStandingSchema,
  AgentSurveyReceivedSchema,
  AgentWaitlistReceivedSchema,
} from "../schemas/responses/agents.ts";
import { CheckCheckoutResultSchema, CheckReportSchema, RedeemResultSchema } from "../schemas/responses/checks.ts";
import {
  AgentMonitorListSchema,
  AgentMonitorSchema,
  MonitorLinkResultSchema,
  MonitorRequestedSchema,
  MonitorSchema,
} from "../schemas/responses/monitors.ts";
import {
  HealthSchema,
  PublicConfigSchema,
  StatusSchema,
  WaitlistReceivedSchema,
} from "../schemas/responses/service.ts";
import { CheckoutStartedSchema, PurchaseSessionSchema } from "../schemas/responses/store.ts";
import { SkillsIndexSchema } from "../schemas/skill.ts";
import { currentPolicyVersions } from "./discovery/documents.ts";
import { absolute, paths } from "./urls.ts";

/** A policy version field that must also be the one in force; checked with every other field, so one 422 lists all. */
function currentVersion(base: z.ZodString, current: string, policy: string) {
  return base.refine((version) => version === current, `must be the current ${policy} version, ${current}`);
}

/**
 * Request bodies: validated by the server with exactly these schemas, published under `/schemas/`.
 * Consent fields must name the policy versions in force (a refinement: the published JSON Schema keeps
 * the pattern, and /terms.json names the versions).
 */
export function requestSchemas(content: Content): RequestSchemas {
  const versions = currentPolicyVersions(content);
  const privacy = currentVersion(PrivacyVersionSchema, versions.privacy_version, "privacy policy");
  const legend = currentVersion(LegendVersionSchema, versions.legend_terms_version, "legend terms");
  return {
    "agent-waitlist-entry": AgentWaitlistEntrySchema.extend({ consent_version: privacy }).meta(
      AgentWaitlistEntrySchema.meta() ?? {},
    ),
    "agent-registration": AgentRegistrationSchema,
    "agent-survey": buildAgentSurveySchema(content.survey),
    "check-input": CheckInputSchema,
    "check-checkout": CheckCheckoutSchema,
    "check-redeem": CheckRedeemSchema,
    "monitor-input": MonitorInputSchema,
    "agent-monitor-input": AgentMonitorInputSchema,
    "monitor-link": MonitorLinkSchema,
    "store-checkout": StoreCheckoutSchema,
    waitlist: WaitlistSignupSchema.extend({ consent_version: privacy, legend_terms_version: legend.optional() }).meta(
      WaitlistSignupSchema.meta() ?? {},
    ),
    // The MCP SDK validates the message itself; this is the envelope it accepts, for OpenAPI and clients.
    "mcp-request": McpRequestSchema,
  };
}

/** Response bodies and discovery documents: what the service promises to send. */
export const RESPONSE_SCHEMAS: Record<string, z.ZodType> = {
  problem: ProblemSchema,
  "doc-index": DocIndexSchema,
  "doc-page": DocPageSchema,
  "policy-index": PolicyIndexSchema,
  "policy-page": PolicyPageSchema,
  "article-index": ArticleIndexSchema,
  "article-page": ArticlePageSchema,
  "record-index": RecordIndexSchema,
  "record-page": RecordPageSchema,
  "resource-index": ResourceIndexSchema,
  "product-index": ProductIndexSchema,
  "category-index": CategoryIndexSchema,
  capabilities: CapabilitiesDocumentSchema,
  "service-state": ServiceStateDocumentSchema,
  pricing: PricingDocumentSchema,
  terms: TermsDocumentSchema,
  roadmap: RoadmapDocumentSchema,
  agents: AgentsDocumentSchema,
  "agent-registered": AgentRegisteredSchema,
  "agent-waitlist-received": AgentWaitlistReceivedSchema,
  "agent-survey-received": AgentSurveyReceivedSchema,
  "agent-standing": AgentStandingSchema,
  "waitlist-received": WaitlistReceivedSchema,
  "checkout-started": CheckoutStartedSchema,
  "purchase-session": PurchaseSessionSchema,
  health: HealthSchema,
  status: StatusSchema,
  config: PublicConfigSchema,
  "check-report": CheckReportSchema,
  "api-root": ApiRootSchema,
  "api-catalog": ApiCatalogSchema,
  "ai-catalog": AiCatalogSchema,
  "skills-index": SkillsIndexSchema,
  "mcp-server-card": McpServerCardSchema,
  "mcp-response": McpResponseSchema,
  "tool-index": ToolIndexSchema,
  "check-redeemed": RedeemResultSchema,
  "check-checkout-result": CheckCheckoutResultSchema,
  monitor: MonitorSchema,
  "agent-monitor": AgentMonitorSchema,
  "agent-monitor-list": AgentMonitorListSchema,
  "monitor-requested": MonitorRequestedSchema,
  "monitor-link-result": MonitorLinkResultSchema,
};

/** A JSON Schema 2020-12 document whose `$id` is the absolute URL it is served at. */
export function toPublishedJsonSchema(
  name: string,
  schema: z.ZodType,
  siteUrl: string,
  io: "input" | "output",
): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "throw" }) as Record<
    string,
    unknown
  >;
  const { $schema, ...rest } = generated;
  return { $schema, $id: absolute(siteUrl, paths.schema(name)), ...rest };
}

export function allPublishedSchemas(content: Content, siteUrl: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [name, schema] of Object.entries(requestSchemas(content)))
    out.set(name, toPublishedJsonSchema(name, schema, siteUrl, "input"));
  for (const [name, schema] of Object.entries(RESPONSE_SCHEMAS)) {
    out.set(name, toPublishedJsonSchema(name, schema, siteUrl, "output"));
  }
  return out;
}
