import type { ServiceSettings } from "../schemas/service.ts";
import type { Component, SwitchName } from "./switches.ts";

/** Named rate limits; their quotas and windows come from configuration. */
export type RateLimitName =
  | "checks"
  | "check-payments"
  | "store-checkout"
  | "session-lookup"
  | "downloads"
  | "agent-writes"
  | "agent-register"
  | "waitlist"
  | "mcp";

export type Authentication = { type: "none" } | { type: "bearer"; scope: string | null };

/** One HTTP operation of the public API: the single registry that capabilities, agents.json, the api-catalog and OpenAPI are generated from. */
export interface Operation {
  /** OpenAPI operationId, verb first. */
  id: string;
  method: "GET" | "POST";
  /** Path template relative to the site, `{name}` for parameters. */
  path: string;
  summary: string;
  /** The capability this operation provides in `/capabilities.json`; absent for plumbing (webhooks). */
  capability?: string;
  authentication: Authentication;
  /** Runtime switch that must be on; off ⇒ 503 and the capability disappears. */
  switch?: SwitchName;
  /** Publish setting (content/service.yaml) that must be on; off ⇒ 404. */
  published?: keyof ServiceSettings["publish"];
  /** Components it needs; any unavailable ⇒ 503 and the capability disappears. */
  requires: readonly Component[];
  /** Name of the request-body schema under `/schemas/`. */
  requestSchema?: string;
  /** The body may be left out (then `{}` is validated). */
  requestBodyOptional?: boolean;
  rateLimit?: RateLimitName;
  /** Every status this operation can answer. */
  statuses: readonly number[];
  /** The docs page that explains it. */
  docs: string;
  /** Served from the static build (true) or by the server. */
  static: boolean;
  /** Name of the success body's schema under `/schemas/` (a key of `RESPONSE_SCHEMAS`); absent for files and plain text. */
  response?: string;
  /** Media type of the success body when it is not `application/json`. */
  responseType?: string;
  /** Other representations of the success body a client can ask for with `Accept`. */
  alternateTypes?: readonly string[];
}

const none: Authentication = { type: "none" };
const bearer = (scope: string | null): Authentication => ({ type: "bearer", scope });

export const OPERATIONS: readonly Operation[] = [
  { id: "listDocs", method: "GET", path: "/api/v1/docs", summary: "List documentation pages", capability: "docs.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/discovery", static: true, response: "doc-index" },
  { id: "getDoc", method: "GET", path: "/api/v1/docs/{path}", summary: "Read one documentation page as Markdown with its versions", capability: "docs.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, response: "doc-page" },
  { id: "listPolicies", method: "GET", path: "/api/v1/policies", summary: "List published policies with versions and placements", capability: "policies.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/reference/versioning", static: true, response: "policy-index" },
  { id: "getPolicy", method: "GET", path: "/api/v1/policies/{slug}", summary: "Read one policy", capability: "policies.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/reference/versioning", static: true, response: "policy-page" },
  { id: "listArticles", method: "GET", path: "/api/v1/articles", summary: "List published articles", capability: "articles.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/discovery", static: true, response: "article-index" },
  { id: "getArticle", method: "GET", path: "/api/v1/articles/{slug}", summary: "Read one article", capability: "articles.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, response: "article-page" },
  { id: "listResources", method: "GET", path: "/api/v1/resources", summary: "List recommended resources and how each was assessed", capability: "resources.list", authentication: none, published: "resources", requires: [], statuses: [200, 404, 503], docs: "/docs/discovery", static: true, response: "resource-index" },
  { id: "listTools", method: "GET", path: "/api/v1/tools", summary: "List the MCP server's tools under the active catalogue revision", capability: "mcp.tools", authentication: none, switch: "mcp", published: "mcp_server", requires: [], rateLimit: "mcp", statuses: [200, 404, 429, 503], docs: "/docs/discovery/mcp-server", static: false, response: "tool-index" },
  { id: "listRecords", method: "GET", path: "/api/v1/records", summary: "List public records", capability: "records.list", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "record-index" },
  { id: "getRecord", method: "GET", path: "/api/v1/records/{slug}", summary: "Read one public record: a list of claims with labels and evidence", capability: "records.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, response: "record-page" },
  { id: "listProducts", method: "GET", path: "/api/v1/products", summary: "List the store catalogue", capability: "store.products", authentication: none, requires: [], statuses: [200], docs: "/docs/store", static: true, response: "product-index" },
  { id: "listStoreCategories", method: "GET", path: "/api/v1/store/categories", summary: "List store categories that have published products", capability: "store.categories", authentication: none, requires: [], statuses: [200], docs: "/docs/store", static: true, response: "category-index" },
  { id: "startStoreCheckout", method: "POST", path: "/api/v1/store/{id}/checkout", summary: "Start a hosted checkout for one item or fee", capability: "store.checkout", authentication: none, switch: "store", requires: ["database", "payments"], requestSchema: "store-checkout", rateLimit: "store-checkout", statuses: [201, 400, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/store", static: false, requestBodyOptional: true, response: "checkout-started" },
  { id: "getPurchaseSession", method: "GET", path: "/api/v1/store/sessions/{session_id}", summary: "Read a purchase's delivery state", capability: "store.session", authentication: none, switch: "store", requires: ["database", "payments"], rateLimit: "session-lookup", statuses: [200, 404, 429, 503], docs: "/docs/store", static: false, response: "purchase-session" },
  { id: "downloadPurchase", method: "GET", path: "/api/v1/store/sessions/{session_id}/download", summary: "Download the purchased file while the entitlement is active", capability: "store.download", authentication: none, requires: ["database", "files"], rateLimit: "downloads", statuses: [200, 206, 404, 410, 416, 429, 503], docs: "/docs/store/downloads", static: false, responseType: "application/octet-stream" },
  { id: "downloadByLink", method: "GET", path: "/api/v1/downloads/{token}", summary: "Download a purchase through the signed link from the delivery e-mail", capability: "store.download-link", authentication: none, requires: ["database", "files"], rateLimit: "downloads", statuses: [200, 206, 410, 416, 429, 503], docs: "/docs/store/downloads", static: false, responseType: "application/octet-stream" },
  { id: "runCheck", method: "POST", path: "/api/v1/checks", summary: "Run an agent-readiness check on a domain", capability: "checks.run", authentication: none, switch: "checks", requires: ["database"], requestSchema: "check-input", rateLimit: "checks", statuses: [200, 400, 413, 415, 422, 429, 503], docs: "/docs/checks", static: false, response: "check-report" },
  { id: "getCheck", method: "GET", path: "/api/v1/checks/{id}", summary: "Read a readiness report; full detail once unlocked", capability: "checks.read", authentication: none, requires: ["database"], statuses: [200, 404, 503], docs: "/docs/checks", static: false, response: "check-report", alternateTypes: ["text/markdown"] },
  { id: "checkoutCheck", method: "POST", path: "/api/v1/checks/{id}/checkout", summary: "Pay to unlock a report or buy a pack of credits", capability: "checks.checkout", authentication: none, switch: "check_payments", requires: ["database", "payments"], requestSchema: "check-checkout", rateLimit: "check-payments", statuses: [200, 400, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/checks/unlock", static: false, response: "check-checkout-result" },
  { id: "redeemCredit", method: "POST", path: "/api/v1/checks/{id}/redeem", summary: "Unlock a report with a credit code", capability: "checks.redeem", authentication: none, switch: "credit_packs", requires: ["database"], requestSchema: "check-redeem", rateLimit: "check-payments", statuses: [200, 400, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/checks/unlock", static: false, response: "check-redeemed" },
  { id: "registerAgent", method: "POST", path: "/api/v1/agents/register", summary: "Register an agent and receive its access token", capability: "agents.register", authentication: none, switch: "agent_register", requires: ["database"], requestSchema: "agent-registration", rateLimit: "agent-register", statuses: [201, 400, 413, 415, 422, 429, 503], docs: "/docs/authentication", static: false, response: "agent-registered" },
  { id: "joinAgentWaitlist", method: "POST", path: "/api/v1/agents/waitlist", summary: "Join the agent waiting list (once per registration)", capability: "agents.waitlist", authentication: bearer("waitlist:write"), switch: "agent_waitlist", requires: ["database"], requestSchema: "agent-waitlist-entry", rateLimit: "agent-writes", statuses: [201, 400, 401, 403, 409, 413, 415, 422, 429, 503], docs: "/docs/agents/waitlist", static: false, response: "agent-waitlist-received" },
  { id: "answerAgentSurvey", method: "POST", path: "/api/v1/agents/survey", summary: "Answer the agent survey (once per registration)", capability: "agents.survey", authentication: bearer("survey:write"), switch: "agent_survey", requires: ["database"], requestSchema: "agent-survey", rateLimit: "agent-writes", statuses: [201, 400, 401, 403, 409, 413, 415, 422, 429, 503], docs: "/docs/agents/survey", static: false, response: "agent-survey-received" },
  { id: "getAgentStanding", method: "GET", path: "/api/v1/agents/me", summary: "Read this registration's standing: trust, scopes, waiting list, survey", capability: "agents.me", authentication: bearer(null), requires: ["database"], statuses: [200, 401, 429, 503], docs: "/docs/authentication", static: false, response: "agent-standing" },
  { id: "joinWaitlist", method: "POST", path: "/api/v1/waitlist", summary: "Join the people's waiting list", capability: "waitlist.join", authentication: none, switch: "waitlist", requires: ["database"], requestSchema: "waitlist", rateLimit: "waitlist", statuses: [202, 400, 413, 415, 422, 429, 503], docs: "/docs/waitlist", static: false, response: "waitlist-received" },
  { id: "getConfig", method: "GET", path: "/api/v1/config", summary: "Read the public runtime switches and current policy versions", capability: "service.config", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false, response: "config" },
  { id: "getHealth", method: "GET", path: "/health", summary: "Liveness", capability: "service.health", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false, response: "health" },
  { id: "getStatus", method: "GET", path: "/status.json", summary: "Component status", capability: "service.status", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false, response: "status" },
  { id: "callMcp", method: "POST", path: "/mcp", summary: "The MCP server (Streamable HTTP, stateless): initialize, tools/list and tools/call as JSON-RPC", capability: "mcp", authentication: none, switch: "mcp", published: "mcp_server", requires: [], requestSchema: "mcp-request", rateLimit: "mcp", statuses: [200, 202, 400, 404, 406, 413, 415, 422, 429, 503], docs: "/docs/discovery/mcp-server", static: false, response: "mcp-response" },
  { id: "receiveStripeWebhook", method: "POST", path: "/api/v1/webhooks/stripe", summary: "Payment provider events (signed)", authentication: none, requires: ["database", "payments"], statuses: [200, 400, 413, 503], docs: "/docs/store", static: false },
  // Discovery documents: no capability of their own (they describe the others), in OpenAPI so that every URL an agent meets is described.
  { id: "getApiRoot", method: "GET", path: "/api/v1", summary: "The API's root: where the catalog, capabilities and docs are", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "api-root" },
  { id: "getArchivedDoc", method: "GET", path: "/api/v1/archive/docs/{key}/{version}", summary: "Read a superseded version of a documentation page", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/reference/versioning", static: true, response: "doc-page" },
  { id: "getArchivedPolicy", method: "GET", path: "/api/v1/archive/policies/{key}/{version}", summary: "Read a superseded version of a policy", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/reference/versioning", static: true, response: "policy-page" },
  { id: "getCapabilities", method: "GET", path: "/capabilities.json", summary: "What works now: every available capability with its endpoint, method and authentication", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "capabilities" },
  { id: "getAgentsDocument", method: "GET", path: "/agents.json", summary: "Agent entry points: registration, token, scopes and tools", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "agents" },
  { id: "getPricing", method: "GET", path: "/pricing.json", summary: "Plans and published prices", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "pricing" },
  { id: "getTerms", method: "GET", path: "/terms.json", summary: "Policies in force, their versions, and the versions forms must send", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "terms" },
  { id: "getRoadmap", method: "GET", path: "/roadmap.json", summary: "Planned work with state labels; dates only where committed", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "roadmap" },
  { id: "getServiceState", method: "GET", path: "/.well-known/service-state.json", summary: "Forms, features and components: what is open, on and healthy", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: true, response: "service-state" },
  { id: "getApiCatalog", method: "GET", path: "/.well-known/api-catalog", summary: "The RFC 9727 API catalog (an RFC 9264 linkset)", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "api-catalog", responseType: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"' },
  { id: "getAiCatalog", method: "GET", path: "/.well-known/ai-catalog.json", summary: "The AI catalog: the MCP server card, this API and the agent skills (also at /.well-known/ard.json)", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "ai-catalog", responseType: "application/ai-catalog+json" },
  { id: "getArdManifest", method: "GET", path: "/.well-known/ard.json", summary: "The ARD manifest: the same document as /.well-known/ai-catalog.json", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, response: "ai-catalog", responseType: "application/ai-catalog+json" },
  { id: "getMcpServerCard", method: "GET", path: "/mcp/server-card", summary: "The MCP server card (also at /.well-known/mcp/server-card.json and /.well-known/mcp.json)", authentication: none, switch: "mcp", published: "mcp_server_card", requires: [], statuses: [200, 404], docs: "/docs/discovery/mcp-server", static: true, response: "mcp-server-card", responseType: "application/mcp-server-card+json" },
  { id: "getWellKnownMcpServerCard", method: "GET", path: "/.well-known/mcp/server-card.json", summary: "The MCP server card where scanners look for it; the same bytes as /mcp/server-card", authentication: none, switch: "mcp", published: "mcp_server_card", requires: [], statuses: [200, 404], docs: "/docs/discovery/mcp-server", static: true, response: "mcp-server-card", responseType: "application/mcp-server-card+json" },
  { id: "getSkillsIndex", method: "GET", path: "/.well-known/agent-skills/index.json", summary: "The agent skills index (Agent Skills discovery 0.2.0) with a digest per skill", authentication: none, published: "agent_skills", requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, response: "skills-index" },
  { id: "getSkill", method: "GET", path: "/.well-known/agent-skills/{slug}/SKILL.md", summary: "One agent skill as Markdown with frontmatter", authentication: none, published: "agent_skills", requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, responseType: "text/markdown; charset=utf-8" },
  { id: "getSchema", method: "GET", path: "/schemas/{file}", summary: "A JSON Schema (2020-12) used by the API", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true, responseType: "application/schema+json" },
  { id: "getOpenApi", method: "GET", path: "/openapi.json", summary: "This OpenAPI 3.1 description", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true, responseType: "application/vnd.oai.openapi+json" },
];

export function findOperation(id: string): Operation {
  const operation = OPERATIONS.find((candidate) => candidate.id === id);
  if (!operation) throw new Error(`Unknown operation ${id}`);
  return operation;
}

/** Every scope some operation requires: the vocabulary tokens are granted from. */
export const AGENT_SCOPES: readonly string[] = [
  ...new Set(OPERATIONS.flatMap((operation) => (operation.authentication.type === "bearer" && operation.authentication.scope ? [operation.authentication.scope] : []))),
];
