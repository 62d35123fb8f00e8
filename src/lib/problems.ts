/** Every problem type the API answers with. Each has a page at `/problems/<code>` that explains it. */
export interface ProblemType {
  code: string;
  status: number;
  title: string;
  /** What it means, for the page. */
  meaning: string;
  /** What a client should do about it. */
  action: string;
}

export const PROBLEM_TYPES = [
  {
    code: "bad-request",
    status: 400,
    title: "The request is malformed",
    meaning: "The request line, a header or the address could not be understood.",
    action: "Check the URL encoding and headers of the request.",
  },
  {
    code: "malformed-json",
    status: 400,
    title: "The body is not valid JSON",
    meaning: "The request body could not be parsed as JSON.",
    action: "Send a single JSON value encoded as UTF-8; check quoting and trailing commas.",
  },
  {
    code: "invalid-webhook-signature",
    status: 400,
    title: "The webhook signature does not verify",
    meaning: "A payment-provider webhook arrived without a valid signature for its exact bytes, or too late.",
    action: "Only the payment provider sends these; check the endpoint's signing secret.",
  },
  {
    code: "unauthorized",
    status: 401,
    title: "An agent access token is needed",
    meaning: "The request carried no agent token, or one that is unknown, revoked or suspended.",
    action: "Register at POST /api/v1/agents/register and send the token as `Authorization: Bearer <token>`.",
  },
  {
    code: "cross-site-form",
    status: 403,
    title: "Forms are accepted from this site only",
    meaning:
      "A form was posted from another site (checked with Origin and Sec-Fetch-Site), which is how cross-site request forgery works.",
    action: "Use the form on this site, or the JSON API.",
  },
  {
    code: "insufficient-scope",
    status: 403,
    title: "The token lacks the scope this needs",
    meaning: "The token is valid but was not granted the scope this endpoint requires.",
    action: "Use a token with the scope named in the `WWW-Authenticate` header, or ask staff to grant it.",
  },
  {
    code: "not-found",
    status: 404,
    title: "Nothing is published at this address",
    meaning: "The path, slug, id, schema, session or report does not exist or is not published.",
    action: "Check the address against /capabilities.json, /api/v1/docs or the api-catalog.",
  },
  {
    code: "method-not-allowed",
    status: 405,
    title: "This address does not accept that method",
    meaning: "The resource exists but does not support the HTTP method used.",
    action: "Use one of the methods in the `Allow` header.",
  },
  {
    code: "not-acceptable",
    status: 406,
    title: "No acceptable representation",
    meaning:
      "The Accept header rules out every media type this endpoint answers with; the MCP endpoint needs both application/json and text/event-stream.",
    action: "Send an Accept header that includes the types the endpoint documents.",
  },
  {
    code: "already-joined",
    status: 409,
    title: "This registration is already on the waiting list",
    meaning: "Each agent registration can join the agent waiting list once; the write is not idempotent.",
    action: "Read GET /api/v1/agents/me to see when you joined; do not retry.",
  },
  {
    code: "already-answered",
    status: 409,
    title: "This registration has already answered the survey",
    meaning: "Each agent registration answers the survey once.",
    action: "Read GET /api/v1/agents/me to see when you answered.",
  },
  {
    code: "not-on-sale",
    status: 409,
    title: "This item is not on sale",
    meaning: "The item is listed in the catalogue but cannot be bought now.",
    action: "Check `on_sale` in /api/v1/products and try again when it is.",
  },
  {
    code: "sold-out",
    status: 409,
    title: "This item is sold out",
    meaning: "The item's limited stock has been sold.",
    action: "Check `stock` in /api/v1/products; restocks appear there.",
  },
  {
    code: "already-unlocked",
    status: 409,
    title: "This report is already unlocked",
    meaning: "The full report is already available; nothing was charged or spent.",
    action: "Read GET /api/v1/checks/{id} for the full detail.",
  },
  {
    code: "no-credits-left",
    status: 409,
    title: "This credit code has no credits left",
    meaning: "Every credit of the code's pack has been spent; nothing was unlocked.",
    action: "Buy a new pack through POST /api/v1/checks/{id}/checkout.",
  },
  {
    code: "monitor-limit-reached",
    status: 409,
    title: "The free plan's number of watched sites is reached",
    meaning:
      "This address, or this agent registration, already watches as many sites as the free plan allows (the number is in /pricing.json, `monitors.free_sites`).",
    action: "Stop a monitor (the unsubscribe link in any of its e-mails) and try again.",
  },
  {
    code: "entitlement-ended",
    status: 410,
    title: "This purchase's download entitlement has ended",
    meaning: "The entitlement expired, or was revoked after a refund or dispute.",
    action: "Contact support if you believe this is wrong; see the refund policy.",
  },
  {
    code: "link-invalid",
    status: 410,
    title: "This download link is no longer valid",
    meaning: "The link expired, was altered, or its purchase no longer grants downloads.",
    action: "Open the purchase session page to get a fresh link while the entitlement is active.",
  },
  {
    code: "monitor-link-invalid",
    status: 410,
    title: "This monitor link is no longer valid",
    meaning:
      "The confirmation or unsubscribe link expired (a confirmation after 7 days), was altered, or its monitor was removed.",
    action: "Ask to watch the site again with POST /api/v1/monitors; a new e-mail brings a fresh link.",
  },
  {
    code: "payload-too-large",
    status: 413,
    title: "The body is too large",
    meaning: "The request body is over the limit for this endpoint.",
    action: "Send a smaller body; the limit is in the detail.",
  },
  {
    code: "range-not-satisfiable",
    status: 416,
    title: "The requested range is outside the file",
    meaning: "A `Range` header asked for bytes the file does not have.",
    action: "Request a range within `Content-Length`, or omit the header.",
  },
  {
    code: "unsupported-media-type",
    status: 415,
    title: "The body must be JSON",
    meaning: "Write endpoints take `Content-Type: application/json`.",
    action: "Send the body as JSON with that content type.",
  },
  {
    code: "validation-failed",
    status: 422,
    title: "The request does not match its schema",
    meaning:
      "One or more fields are missing, unknown or out of bounds. `errors` lists every violation with a JSON Pointer.",
    action: "Fix each field named in `errors[].pointer`; the schema is linked from the endpoint's docs.",
  },
  {
    code: "target-not-allowed",
    status: 422,
    title: "This target cannot be checked",
    meaning:
      "Readiness checks only reach public http(s) sites; the target is private, local, reserved, or not a valid host.",
    action: "Check a public hostname or URL.",
  },
  {
    code: "invalid-credit-code",
    status: 422,
    title: "This credit code is not valid",
    meaning: "The code is malformed (its check character does not match) or no such code exists.",
    action: "Copy the code exactly from the purchase e-mail; hyphens and case do not matter.",
  },
  {
    code: "rate-limited",
    status: 429,
    title: "Too many requests",
    meaning: "This client sent more requests than the endpoint's limit allows in the current window.",
    action: "Wait for `Retry-After` seconds; the `RateLimit` header shows what remains.",
  },
  {
    code: "internal-error",
    status: 500,
    title: "Something went wrong on our side",
    meaning: "An unexpected error; nothing about it is revealed, but it is logged under the request id.",
    action: "Retry later; quote `request_id` when contacting support.",
  },
  {
    code: "payment-provider-answer-invalid",
    status: 502,
    title: "The payment provider's answer could not be understood",
    meaning:
      "The payment provider answered, but not with something this service can read (not JSON, or not the object asked for). Nothing was charged or changed; the answer is logged for the operator.",
    action: "Retry after `Retry-After` seconds; if it persists, the operator will find the cause in the server's log.",
  },
  {
    code: "service-unavailable",
    status: 503,
    title: "A component behind this endpoint is unavailable",
    meaning:
      "The database, the payment provider, mail or the file store is not available right now; or, behind the front of a scale-out deployment, no API instance answered.",
    action: "Retry after `Retry-After` seconds; /status.json shows which component is down.",
  },
  {
    code: "form-closed",
    status: 503,
    title: "This form or feature is closed",
    meaning: "Staff have switched this form or feature off for now.",
    action: "See /api/v1/config for what is open.",
  },
] as const satisfies readonly ProblemType[];

export type ProblemCode = (typeof PROBLEM_TYPES)[number]["code"];

const byCode = new Map<string, ProblemType>(PROBLEM_TYPES.map((type) => [type.code, type]));

export function problemType(code: ProblemCode): ProblemType {
  const type = byCode.get(code);
  if (!type) throw new Error(`Unknown problem code ${code}`);
  return type;
}
