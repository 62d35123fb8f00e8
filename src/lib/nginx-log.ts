import { REDACTED, REDACTED_PATHS } from "./redacted-paths.ts";

/** The front's log format: one JSON object per request, as the instances write theirs. */
export const NGINX_LOG_FORMAT = "agentready";

/**
 * A regular expression as an nginx string. Unlike a value (`quoted`), a map's regex source is never
 * read for variables, so `$` (an anchor) may appear; `"` and `\` are escaped for the parser.
 */
function regexQuoted(source: string): string {
  return `"~${source.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`;
}

/**
 * The http-level lines that give the front an access log that holds no secret, at `file`:
 *
 * - the path is redacted by the instances' own rules (REDACTED_PATHS, src/lib/redacted-paths.ts),
 *   matched against `$uri`, the path as nginx resolved it (`..` and `%2e` undone, so a path spelled
 *   around a rule still meets it); a path no rule matches is logged as the client sent it, without
 *   its query string (where a token may travel);
 * - the Referer is not logged: a page's own address (a report's id) arrives in it with every asset;
 * - `$upstream_addr` says which instance answered.
 *
 * nginx creates a log 0644 and never changes the mode of one that exists: whoever starts it creates
 * the file 0600 first (scripts/lib/static-front.ts).
 */
export function nginxAccessLog(file: string): string {
  const rules = REDACTED_PATHS.map(
    ({ kept, secret }) =>
      `    ${regexQuoted(`^(?<agentready_kept>${kept})${secret}(?<agentready_rest>.*)$`)} "\${agentready_kept}${REDACTED}\${agentready_rest}";`,
  );
  return `  # The path as the client sent it, without the query string.
  map $request_uri $agentready_sent_path {
    ${regexQuoted("^(?<agentready_sent>[^?]*)")} $agentready_sent;
  }
  # Capability URLs with their secret redacted, by the instances' rules (src/lib/redacted-paths.ts).
  map $uri $agentready_logged_path {
${rules.join("\n")}
    default $agentready_sent_path;
  }
  log_format ${NGINX_LOG_FORMAT} escape=json '{"time":"$time_iso8601","remote_addr":"$remote_addr","method":"$request_method","path":"$agentready_logged_path","status":$status,"bytes":$body_bytes_sent,"seconds":$request_time,"upstream":"$upstream_addr"}';
  access_log ${file} ${NGINX_LOG_FORMAT};
`;
}
