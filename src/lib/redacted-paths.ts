/**
 * The URLs that carry a secret or a private id in their path (capability URLs): a download token, a
 * checkout session id, a report id, a monitor id or its confirm/unsubscribe token. Whoever logs a
 * request path logs it through these rules: the instances (`redactPath`, api/platform/access-log.ts)
 * and the nginx front, whose log format is generated from the same list (src/lib/nginx-log.ts).
 *
 * Each rule is a `kept` prefix and the `secret` that follows it, as regular-expression sources that
 * JavaScript and PCRE (nginx) read alike; the secret becomes `[redacted]`, the rest of the path stays.
 */
export interface RedactedPath {
  kept: string;
  secret: string;
}

export const REDACTED_PATHS: readonly RedactedPath[] = [
  { kept: "/api/v1/downloads/", secret: "[^/?]+" },
  { kept: "/api/v1/store/sessions/cs_(?:test|live)_", secret: "[^/?]+" },
  { kept: "(?:/api/v1)?/checks/", secret: "[0-9a-f-]{36}" },
  // `confirm` and `unsubscribe` alone are the POST endpoints' own names, not a monitor's id.
  {
    kept: "(?:/api/v1(?:/agents)?)?/monitors/(?:confirm/|unsubscribe/)?",
    secret: "(?!(?:confirm|unsubscribe)(?:$|\\?))[^/?]+",
  },
];

export const REDACTED = "[redacted]";

const RULES = REDACTED_PATHS.map(({ kept, secret }) => new RegExp(`^(${kept})${secret}`));

/** The path as a log may show it: a capability URL's secret replaced, the query string dropped. */
export function redactPath(path: string): string {
  let redacted = path;
  for (const rule of RULES) redacted = redacted.replace(rule, `$1${REDACTED}`);
  return redacted.replace(/\?.*$/, "");
}
