import { DOC_PATH_PATTERN } from "../../schemas/doc.ts";
import { MONITOR_ID_PATTERN } from "../../schemas/responses/monitors.ts";
import { MCP_ACCEPT, MCP_PROTOCOL_VERSIONS } from "../discovery/mcp-card.ts";
import { MCP_AGENT_PATH } from "../discovery/oauth.ts";
import type { Operation } from "../registry.ts";
import { absolute } from "../urls.ts";
import { CLIENT_ERROR_REF, headerRef, problemResponseRef, schemaRef } from "./components.ts";

type Json = Record<string, unknown>;

/** The versioned API's base: the api-catalog anchors it, so it is the document's `servers` entry (RFC 9727 §4.1). */
export const API_BASE = "/api/v1";

/** The key under `paths` and, for operations outside the API base, the site-root server they need. */
export function pathKey(operation: Operation): { key: string; atRoot: boolean } {
  if (operation.path.startsWith(`${API_BASE}/`)) return { key: operation.path.slice(API_BASE.length), atRoot: false };
  return { key: operation.path, atRoot: true };
}

const TAGS: Record<string, string> = {
  docs: "Documentation pages as JSON, with their Markdown and versions",
  policies: "Published policies and their versions",
  articles: "Articles",
  resources: "Recommended agents, services, software, guides and directories",
  records: "Public records: claims with labels and evidence",
  mcp: "The MCP server and its tool catalogue",
  store: "The store: catalogue, hosted checkout, delivery and downloads",
  checks: "Agent-readiness checks and report unlocks",
  monitors: "Watched sites: scheduled re-checks, their history, a badge and alerts",
  agents: "Agent registration, the agent waiting list and survey",
  waitlist: "The people's waiting list",
  service: "Health, status and public runtime switches",
  discovery: "Machine-readable discovery documents",
};

export const TAG_LIST = Object.entries(TAGS).map(([name, description]) => ({ name, description }));

function tagOf(operation: Operation): string {
  if (operation.capability) return operation.capability.split(".")[0] ?? "discovery";
  if (operation.path.startsWith("/api/v1/webhooks/")) return "store";
  if (operation.path.startsWith("/api/v1/archive/docs/")) return "docs";
  if (operation.path.startsWith("/api/v1/archive/policies/")) return "policies";
  return "discovery";
}

const PARAMETER_DESCRIPTIONS: Record<string, string> = {
  path: "The page path: one to four lower-case segments joined by `/`, sent as they are (the slashes are not percent-encoded).",
  slug: "The lower-case slug.",
  session_id: "The checkout session id (`cs_live_…` or `cs_test_…`); the id is the credential. Any other form is 404.",
  token: "The signed token from the delivery e-mail's link.",
  key: "The page or policy key the version belongs to.",
  version: "The superseded version, e.g. `privacy-2026-09-15`.",
  file: "The schema's file name, e.g. `agents.json`.",
  domain: "The monitored domain, as its monitor shows it (`example.com`, or `host:port` for another port).",
};

function pathParameter(operation: Operation, name: string): Json {
  let schema: Json = { type: "string" };
  let description = PARAMETER_DESCRIPTIONS[name] ?? name;
  if (name === "path") schema = { type: "string", pattern: DOC_PATH_PATTERN };
  if (name === "id" && operation.path.startsWith("/api/v1/checks/")) {
    schema = { type: "string", format: "uuid" };
    description = "The report's id (a UUID); the id is the link to the report.";
  } else if (name === "id" && operation.path.includes("/monitors/")) {
    schema = { type: "string", pattern: MONITOR_ID_PATTERN };
    description = "The monitor's id (`mon_…`); the id is the credential to the monitor and its history.";
  } else if (name === "id") {
    description = "The catalogue item's id, as in /api/v1/products.";
  }
  return { name, in: "path", required: true, description, schema };
}

/** A monitor's history is read a page at a time, newest first. */
const HISTORY_PAGE_PARAMETERS: Json[] = [
  {
    name: "before",
    in: "query",
    required: false,
    description: "The cursor of the next (older) page, as `history.next` gives it.",
    schema: { type: "string", pattern: "^[1-9][0-9]*$" },
  },
  {
    name: "limit",
    in: "query",
    required: false,
    description: "Runs per page, 1 to 100 (default 20).",
    schema: { type: "string", pattern: "^[0-9]+$" },
  },
];

/** Both MCP endpoints speak the same transport. */
const MCP_OPERATIONS: ReadonlySet<string> = new Set(["callMcp", "callAgentMcp"]);

const MCP_HEADERS: Json[] = [
  {
    name: "MCP-Protocol-Version",
    in: "header",
    required: false,
    description: `The negotiated protocol revision, on every request after initialize (MCP transports). Send \`Accept: ${MCP_ACCEPT}\`.`,
    schema: { type: "string", enum: [...MCP_PROTOCOL_VERSIONS] },
  },
];

const MCP_RULE = `Every POST must send \`Accept: ${MCP_ACCEPT}\` (MCP Streamable HTTP); any other \`Accept\` is answered 406 with a \`not-acceptable\` problem. Answers are JSON (the server is stateless and opens no event stream).`;

/** Request headers and query parameters an operation reads besides `Authorization` and `Content-Type`. */
const HEADER_PARAMETERS: Record<string, Json[]> = {
  getMonitor: HISTORY_PAGE_PARAMETERS,
  getAgentMonitor: HISTORY_PAGE_PARAMETERS,
  callMcp: MCP_HEADERS,
  callAgentMcp: MCP_HEADERS,
  startStoreCheckout: [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "Retrying with the same key and body returns the same checkout session instead of a second one (draft-ietf-httpapi-idempotency-key-header).",
      schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
    },
  ],
};

/** What an operation asks of a request beyond its parameters and body, said in its description. */
const REQUEST_RULES: Record<string, string> = {
  callMcp: MCP_RULE,
  callAgentMcp: `${MCP_RULE} Without a valid token it answers 401 whatever the request, naming its protected-resource metadata (RFC 9728) so an MCP client can sign in with OAuth.`,
};

/** Error statuses whose cause is particular to one operation (OpenAPI 3.1 lets a reference override its description). */
const MCP_NOT_ACCEPTABLE = { 406: `Not acceptable: the request's \`Accept\` did not list both \`${MCP_ACCEPT}\`.` };
const PROBLEM_DESCRIPTIONS: Record<string, Record<number, string>> = {
  callMcp: MCP_NOT_ACCEPTABLE,
  callAgentMcp: MCP_NOT_ACCEPTABLE,
};

/** Error statuses answered with something other than a problem: a badge's 404 is still an image an embed can show. */
const NON_PROBLEM_ERRORS: Record<string, Record<number, Json>> = {
  getMonitorBadge: {
    404: {
      description: 'A neutral "not monitored" badge: no active monitor watches this domain.',
      content: { "image/svg+xml": { schema: { type: "string" } } },
    },
  },
};

function rateLimitHeaders(operation: Operation): Json {
  return operation.rateLimit
    ? { RateLimit: headerRef("RateLimit"), "RateLimit-Policy": headerRef("RateLimitPolicy") }
    : {};
}

/** Alternate representations that are not text: described here, since their schemas are not ours to publish. */
const ALTERNATE_SCHEMAS: Record<string, Json> = {
  "application/sarif+json": {
    type: "object",
    description:
      "A SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json): one rule per check, one result per fail or warn. A locked report gives only its free summary: no remediation, and results located at the site's origin.",
  },
};

function successBody(operation: Operation): Json {
  const type = operation.responseType ?? "application/json";
  let schema: Json;
  if (operation.response) schema = schemaRef(operation.response);
  else if (type.startsWith("text/")) schema = { type: "string" };
  else if (type === "application/octet-stream")
    schema = { description: "The purchased file, served with its own media type." };
  else schema = { type: "object" };
  const content: Json = { [type]: { schema } };
  for (const alternate of operation.alternateTypes ?? [])
    content[alternate] = { schema: ALTERNATE_SCHEMAS[alternate] ?? { type: "string" } };
  return content;
}

const SUCCESS_DESCRIPTIONS: Record<number, string> = {
  200: "OK",
  201: "Created",
  202: "Accepted",
  206: "Partial content (a `Range` request)",
};

function responses(operation: Operation): Json {
  const out: Json = {};
  for (const status of operation.statuses) {
    const special = NON_PROBLEM_ERRORS[operation.id]?.[status];
    if (special) {
      out[String(status)] = special;
      continue;
    }
    if (status >= 400) {
      const description = PROBLEM_DESCRIPTIONS[operation.id]?.[status];
      out[String(status)] = { ...problemResponseRef(status), ...(description ? { description } : {}) };
      continue;
    }
    const headers = rateLimitHeaders(operation);
    // An MCP notification is accepted with 202 and no body (Streamable HTTP).
    const body = status === 202 && MCP_OPERATIONS.has(operation.id) ? {} : { content: successBody(operation) };
    out[String(status)] = {
      description:
        status === 202 && MCP_OPERATIONS.has(operation.id)
          ? "A notification was accepted; no body"
          : (SUCCESS_DESCRIPTIONS[status] ?? "Success"),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...body,
    };
  }
  // An address every well-formed request succeeds at (a document) still says what a client error would look like.
  if (!operation.statuses.some((status) => status >= 400 && status < 500)) out["4XX"] = CLIENT_ERROR_REF;
  // Anything unexpected is a 500 problem that reveals nothing (DESIGN §5).
  out.default = problemResponseRef(500);
  return out;
}

/** One operation object: parameters from the path template, body, every status, security, docs. */
export function operationObject(operation: Operation, docsUrl: string): Json {
  const parameters: Json[] = [...operation.path.matchAll(/\{([a-z_]+)\}/g)].map((match) =>
    pathParameter(operation, match[1] ?? ""),
  );
  parameters.push(...(HEADER_PARAMETERS[operation.id] ?? []));
  const object: Json = {
    operationId: operation.id,
    summary: operation.summary,
    description: [`${operation.summary}.`, REQUEST_RULES[operation.id], `See ${absolute(docsUrl, operation.docs)}.`]
      .filter(Boolean)
      .join(" "),
    tags: [tagOf(operation)],
    ...(parameters.length > 0 ? { parameters } : {}),
  };
  if (operation.requestSchema) {
    object.requestBody = {
      required: operation.requestBodyOptional !== true,
      content: { "application/json": { schema: schemaRef(operation.requestSchema) } },
    };
  }
  object.responses = responses(operation);
  // An empty list says "no credential" outright, rather than leaving a reader to wonder (and linters to ask).
  const scopes =
    operation.authentication.type === "bearer" && operation.authentication.scope
      ? [operation.authentication.scope]
      : [];
  const oauth = operation.path === MCP_AGENT_PATH ? "oauthMcpAgent" : "oauth";
  object.security = operation.authentication.type === "bearer" ? [{ agentToken: scopes }, { [oauth]: scopes }] : [];
  if (operation.rateLimit) object["x-rate-limit"] = operation.rateLimit;
  object.externalDocs = { url: absolute(docsUrl, operation.docs) };
  return object;
}
