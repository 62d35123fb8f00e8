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
  | "waitlist";

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
  published?: "resources" | "mcp_server";
  /** Components it needs; any unavailable ⇒ 503 and the capability disappears. */
  requires: readonly Component[];
  /** Name of the request-body schema under `/schemas/`. */
  requestSchema?: string;
  rateLimit?: RateLimitName;
  /** Every status this operation can answer. */
  statuses: readonly number[];
  /** The docs page that explains it. */
  docs: string;
  /** Served from the static build (true) or by the server. */
  static: boolean;
}

const none: Authentication = { type: "none" };
const bearer = (scope: string | null): Authentication => ({ type: "bearer", scope });

export const OPERATIONS: readonly Operation[] = [
  { id: "listDocs", method: "GET", path: "/api/v1/docs", summary: "List documentation pages", capability: "docs.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/discovery", static: true },
  { id: "getDoc", method: "GET", path: "/api/v1/docs/{path}", summary: "Read one documentation page as Markdown with its versions", capability: "docs.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true },
  { id: "listPolicies", method: "GET", path: "/api/v1/policies", summary: "List published policies with versions and placements", capability: "policies.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/reference/versioning", static: true },
  { id: "getPolicy", method: "GET", path: "/api/v1/policies/{slug}", summary: "Read one policy", capability: "policies.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/reference/versioning", static: true },
  { id: "listArticles", method: "GET", path: "/api/v1/articles", summary: "List published articles", capability: "articles.list", authentication: none, requires: [], statuses: [200, 503], docs: "/docs/discovery", static: true },
  { id: "getArticle", method: "GET", path: "/api/v1/articles/{slug}", summary: "Read one article", capability: "articles.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true },
  { id: "listResources", method: "GET", path: "/api/v1/resources", summary: "List recommended resources and how each was assessed", capability: "resources.list", authentication: none, published: "resources", requires: [], statuses: [200, 404, 503], docs: "/docs/discovery", static: true },
  { id: "listRecords", method: "GET", path: "/api/v1/records", summary: "List public records", capability: "records.list", authentication: none, requires: [], statuses: [200], docs: "/docs/discovery", static: true },
  { id: "getRecord", method: "GET", path: "/api/v1/records/{slug}", summary: "Read one public record: a list of claims with labels and evidence", capability: "records.read", authentication: none, requires: [], statuses: [200, 404], docs: "/docs/discovery", static: true },
  { id: "listProducts", method: "GET", path: "/api/v1/products", summary: "List the store catalogue", capability: "store.products", authentication: none, requires: [], statuses: [200], docs: "/docs/store", static: true },
  { id: "listStoreCategories", method: "GET", path: "/api/v1/store/categories", summary: "List store categories that have published products", capability: "store.categories", authentication: none, requires: [], statuses: [200], docs: "/docs/store", static: true },
  { id: "startStoreCheckout", method: "POST", path: "/api/v1/store/{id}/checkout", summary: "Start a hosted checkout for one item or fee", capability: "store.checkout", authentication: none, switch: "store", requires: ["database", "payments"], requestSchema: "store-checkout", rateLimit: "store-checkout", statuses: [201, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/store", static: false },
  { id: "getPurchaseSession", method: "GET", path: "/api/v1/store/sessions/{session_id}", summary: "Read a purchase's delivery state", capability: "store.session", authentication: none, switch: "store", requires: ["database", "payments"], rateLimit: "session-lookup", statuses: [200, 404, 429, 503], docs: "/docs/store", static: false },
  { id: "downloadPurchase", method: "GET", path: "/api/v1/store/sessions/{session_id}/download", summary: "Download the purchased file while the entitlement is active", capability: "store.download", authentication: none, requires: ["database", "files"], rateLimit: "downloads", statuses: [200, 206, 404, 410, 416, 429, 503], docs: "/docs/store/downloads", static: false },
  { id: "downloadByLink", method: "GET", path: "/api/v1/downloads/{token}", summary: "Download a purchase through the signed link from the delivery e-mail", capability: "store.download-link", authentication: none, requires: ["database", "files"], rateLimit: "downloads", statuses: [200, 206, 410, 416, 429, 503], docs: "/docs/store/downloads", static: false },
  { id: "runCheck", method: "POST", path: "/api/v1/checks", summary: "Run an agent-readiness check on a domain", capability: "checks.run", authentication: none, switch: "checks", requires: ["database"], requestSchema: "check-input", rateLimit: "checks", statuses: [200, 413, 415, 422, 429, 503], docs: "/docs/checks", static: false },
  { id: "getCheck", method: "GET", path: "/api/v1/checks/{id}", summary: "Read a readiness report; full detail once unlocked", capability: "checks.read", authentication: none, requires: ["database"], statuses: [200, 404, 503], docs: "/docs/checks", static: false },
  { id: "checkoutCheck", method: "POST", path: "/api/v1/checks/{id}/checkout", summary: "Pay to unlock a report or buy a pack of credits", capability: "checks.checkout", authentication: none, switch: "check_payments", requires: ["database", "payments"], requestSchema: "check-checkout", rateLimit: "check-payments", statuses: [200, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/checks/unlock", static: false },
  { id: "redeemCredit", method: "POST", path: "/api/v1/checks/{id}/redeem", summary: "Unlock a report with a credit code", capability: "checks.redeem", authentication: none, switch: "credit_packs", requires: ["database"], requestSchema: "check-redeem", rateLimit: "check-payments", statuses: [200, 404, 409, 413, 415, 422, 429, 503], docs: "/docs/checks/unlock", static: false },
  { id: "registerAgent", method: "POST", path: "/api/v1/agents/register", summary: "Register an agent and receive its access token", capability: "agents.register", authentication: none, switch: "agent_register", requires: ["database"], requestSchema: "agent-registration", rateLimit: "agent-register", statuses: [201, 413, 415, 422, 429, 503], docs: "/docs/authentication", static: false },
  { id: "joinAgentWaitlist", method: "POST", path: "/api/v1/agents/waitlist", summary: "Join the agent waiting list (once per registration)", capability: "agents.waitlist", authentication: bearer("waitlist:write"), switch: "agent_waitlist", requires: ["database"], requestSchema: "agent-waitlist-entry", rateLimit: "agent-writes", statuses: [201, 401, 403, 409, 413, 415, 422, 429, 503], docs: "/docs/agents/waitlist", static: false },
  { id: "answerAgentSurvey", method: "POST", path: "/api/v1/agents/survey", summary: "Answer the agent survey (once per registration)", capability: "agents.survey", authentication: bearer("survey:write"), switch: "agent_survey", requires: ["database"], requestSchema: "agent-survey", rateLimit: "agent-writes", statuses: [201, 401, 403, 409, 413, 415, 422, 429, 503], docs: "/docs/agents/survey", static: false },
  { id: "getAgentStanding", method: "GET", path: "/api/v1/agents/me", summary: "Read this registration's standing: trust, scopes, waiting list, survey", capability: "agents.me", authentication: bearer(null), requires: ["database"], statuses: [200, 401, 503], docs: "/docs/authentication", static: false },
  { id: "joinWaitlist", method: "POST", path: "/api/v1/waitlist", summary: "Join the people's waiting list", capability: "waitlist.join", authentication: none, switch: "waitlist", requires: ["database"], requestSchema: "waitlist", rateLimit: "waitlist", statuses: [202, 413, 415, 422, 429, 503], docs: "/docs/waitlist", static: false },
  { id: "getConfig", method: "GET", path: "/api/v1/config", summary: "Read the public runtime switches and current policy versions", capability: "service.config", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false },
  { id: "getHealth", method: "GET", path: "/health", summary: "Liveness", capability: "service.health", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false },
  { id: "getStatus", method: "GET", path: "/status.json", summary: "Component status", capability: "service.status", authentication: none, requires: [], statuses: [200], docs: "/docs/operations/status", static: false },
  { id: "receiveStripeWebhook", method: "POST", path: "/api/v1/webhooks/stripe", summary: "Payment provider events (signed)", authentication: none, requires: ["database", "payments"], statuses: [200, 400, 503], docs: "/docs/store", static: false },
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
