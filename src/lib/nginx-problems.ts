import { type ProblemCode, problemType } from "./problems.ts";
import { problemHeaders } from "./static-headers.ts";
import { absolute, paths } from "./urls.ts";

/**
 * How long a client should wait when no instance answered: the time nginx leaves a failed instance
 * out (`fail_timeout`), after which it tries it again.
 */
export const INSTANCE_RETRY_SECONDS = 5;

/** A string as nginx reads it between single quotes, where it may hold variables (`$name`). */
function singleQuoted(value: string): string {
  return `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

/** A JSON string literal nginx writes as is: no `$` (nginx would read a variable) may be in it. */
function jsonLiteral(value: string): string {
  if (value.includes("$")) throw new Error(`nginx would read ${value} as holding a variable`);
  return JSON.stringify(value);
}

/**
 * The problem+json (RFC 9457) the front answers itself, with the body, headers and `type` URL the
 * API would give (src/lib/problems.ts, static-headers.ts), and the request's path as `instance`
 * when it needs no escaping in JSON (`$agentready_problem_instance`, below).
 */
function problemLocation(
  name: string,
  code: ProblemCode,
  detail: string,
  siteUrl: string,
  extraHeaders: readonly (readonly [string, string])[] = [],
): string {
  const type = problemType(code);
  const body = `{"type":${jsonLiteral(absolute(siteUrl, paths.problem(code)))},"title":${jsonLiteral(type.title)},"status":${type.status},"detail":${jsonLiteral(detail)}$agentready_problem_instance,"code":${jsonLiteral(code)}}`;
  const headers = [...problemHeaders(), ...extraHeaders].map(
    ([header, value]) => `  add_header ${header} ${singleQuoted(value)} always;`,
  );
  return [
    `location ${name} {`,
    '  default_type "application/problem+json";',
    ...headers,
    `  return ${type.status} ${singleQuoted(body)};`,
    "}",
  ].join("\n");
}

/** A path of only the characters a URL path may hold unescaped, and no `"` or `\`: safe inside JSON. */
const PLAIN_PATH = "^(?<agentready_plain_path>[-A-Za-z0-9._~!&()*+,;=:@/%]*)(?:\\?.*)?$";

/** The http-level map that gives the front's problems their `instance` member. */
export function nginxProblemMaps(): string {
  return `  # A problem's instance: the path as sent, when it needs no escaping in JSON (else left out).
  map $request_uri $agentready_problem_instance {
    "~${PLAIN_PATH}" ',"instance":"$agentready_plain_path"';
    default "";
  }
`;
}

export interface BodyLimits {
  /** What the API accepts in a body (BODY_LIMIT_BYTES, api/config.ts). */
  bodyLimitBytes: number;
  /** What the payment provider's webhook accepts (api/payments/webhook-route.ts). */
  webhookLimitBytes: number;
}

/**
 * The server-level lines that keep the API's promises where nginx answers itself: a body over the
 * API's limit is its 413 problem, not nginx's HTML; no instance reachable is a 503 problem with
 * `Retry-After`, not a 502 page. `webhookPath` gets the webhook's own limit. Only errors nginx makes
 * are replaced (`proxy_intercept_errors` stays off): an instance's own answers pass untouched.
 */
export function nginxProblemRules(siteUrl: string, limits: BodyLimits, webhookPath: string, proxy: string[]): string {
  const tooLarge = (bytes: number) => `The body is over the limit of ${bytes} bytes.`;
  // A location with error pages of its own inherits none: the webhook's names this one again.
  const unavailable = "error_page 502 504 =503 @agentready_unavailable;";
  return [
    `client_max_body_size ${limits.bodyLimitBytes};`,
    // A page asked for as Markdown reaches @api through an error_page of its own: its failures too.
    "recursive_error_pages on;",
    unavailable,
    "error_page 413 =413 @agentready_too_large;",
    `location = ${webhookPath} {`,
    `  client_max_body_size ${limits.webhookLimitBytes};`,
    `  ${unavailable}`,
    "  error_page 413 =413 @agentready_webhook_too_large;",
    ...proxy,
    "}",
    problemLocation(
      "@agentready_unavailable",
      "service-unavailable",
      `No API instance answered; retry in ${INSTANCE_RETRY_SECONDS} s.`,
      siteUrl,
      [["Retry-After", String(INSTANCE_RETRY_SECONDS)]],
    ),
    problemLocation("@agentready_too_large", "payload-too-large", tooLarge(limits.bodyLimitBytes), siteUrl),
    problemLocation("@agentready_webhook_too_large", "payload-too-large", tooLarge(limits.webhookLimitBytes), siteUrl),
  ]
    .join("\n")
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
