import { pointerTarget } from "./openapi/references.ts";
import { isRecord } from "./parse/json.ts";
import type { Verdict } from "./verdict.ts";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface OpenApiOperation {
  path: string;
  method: string;
  operation: Record<string, unknown>;
}

export function operationsOf(spec: Record<string, unknown>): OpenApiOperation[] {
  const paths = isRecord(spec.paths) ? spec.paths : {};
  const operations: OpenApiOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (isRecord(operation)) operations.push({ path, method, operation });
    }
  }
  return operations;
}

function collectRefs(value: unknown, refs: Set<string>, depth = 0): void {
  if (depth > 64) return;
  if (Array.isArray(value)) for (const item of value) collectRefs(item, refs, depth + 1);
  else if (isRecord(value)) {
    for (const [key, member] of Object.entries(value)) {
      if (key === "$ref" && typeof member === "string") refs.add(member);
      else collectRefs(member, refs, depth + 1);
    }
  }
}

function securityNames(requirements: unknown): string[] {
  return Array.isArray(requirements)
    ? requirements.flatMap((requirement) => (isRecord(requirement) ? Object.keys(requirement) : []))
    : [];
}

const ERROR_RESPONSE = /^(4\d\d|5\d\d|4XX|5XX|default)$/;
const OAS = "OpenAPI 3.1 §4.8";

/**
 * What an agent depends on beyond the schema (landscape §3.12), each at the strength the specification gives it:
 * unique operationIds, declared security schemes and resolvable local $refs are MUSTs; operationIds themselves,
 * summaries, servers and documented errors are optional in OpenAPI, so their absence is noted, not failed.
 */
export function lintOpenApi(
  spec: Record<string, unknown>,
  isAcceptableServer: (url: URL) => boolean,
  verdict: Verdict,
): number {
  const version = typeof spec.openapi === "string" ? spec.openapi : null;
  if (version === null) verdict.should(OAS, `it is Swagger ${String(spec.swagger)}, which OpenAPI 3 replaced`);
  else if (!/^3\.[0-2]\.\d+$/.test(version)) verdict.must(`${OAS}.1`, `openapi "${version}" is not 3.0, 3.1 or 3.2`);
  const operations = operationsOf(spec);
  if (operations.length === 0) verdict.should(`${OAS}.1`, "paths lists no operations, so an agent has nothing to call");
  const servers = Array.isArray(spec.servers) ? spec.servers.filter(isRecord) : [];
  if (servers.length === 0)
    verdict.hint(`${OAS}.1`, "no servers are declared, so clients assume the document's own host");
  for (const server of servers) {
    const url = typeof server.url === "string" ? server.url : "";
    if (!URL.canParse(url)) verdict.hint(`${OAS}.5`, `server "${url}" is relative to the document's URL`);
    else if (!isAcceptableServer(new URL(url))) verdict.should("RFC 9110 §4.2.2", `server ${url} is not https`);
  }
  const ids = operations
    .map((entry) => entry.operation.operationId)
    .filter((id): id is string => typeof id === "string" && id !== "");
  if (ids.length < operations.length) {
    const message = `${operations.length - ids.length} of ${operations.length} operation(s) have no operationId, which tools use to name calls`;
    if (ids.length === 0) verdict.should(`${OAS}.10`, message);
    else verdict.hint(`${OAS}.10`, message);
  }
  const duplicates = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
  if (duplicates.length > 0) verdict.must(`${OAS}.10`, `operationIds are not unique: ${duplicates.join(", ")}`);
  const undescribed = operations.filter(
    (entry) => typeof entry.operation.summary !== "string" && typeof entry.operation.description !== "string",
  );
  if (undescribed.length > 0)
    verdict.hint(`${OAS}.10`, `${undescribed.length} operation(s) have neither summary nor description`);
  const withoutErrors = operations.filter(
    (entry) =>
      !(
        isRecord(entry.operation.responses) &&
        Object.keys(entry.operation.responses).some((code) => ERROR_RESPONSE.test(code))
      ),
  );
  if (withoutErrors.length > 0)
    verdict.hint(
      `${OAS}.16`,
      `${withoutErrors.length} operation(s) document no error response, e.g. ${withoutErrors[0]?.method.toUpperCase() ?? ""} ${withoutErrors[0]?.path ?? ""}`,
    );
  const components = isRecord(spec.components) ? spec.components : {};
  const schemes = isRecord(components.securitySchemes) ? Object.keys(components.securitySchemes) : [];
  const used = new Set([
    ...securityNames(spec.security),
    ...operations.flatMap((entry) => securityNames(entry.operation.security)),
  ]);
  const undeclared = [...used].filter((name) => !schemes.includes(name));
  if (undeclared.length > 0) verdict.must(`${OAS}.30`, `security uses undeclared scheme(s): ${undeclared.join(", ")}`);
  const refs = new Set<string>();
  collectRefs(spec, refs);
  const broken = [...refs].filter((ref) => ref.startsWith("#/") && pointerTarget(spec, ref) === undefined);
  if (broken.length > 0)
    verdict.must(`${OAS}.23`, `${broken.length} local $ref(s) point nowhere, e.g. ${broken[0] ?? ""}`);
  return operations.length;
}

/** The description says the API is rate limited: a documented 429 or RateLimit headers. */
export function advertisesRateLimits(spec: Record<string, unknown> | null): boolean {
  if (spec === null) return false;
  const text = JSON.stringify(spec);
  return /"429"\s*:/.test(text) || /"(RateLimit|RateLimit-Policy|X-RateLimit-[A-Za-z]+)"\s*:/i.test(text);
}

/** OAuth2/OpenID Connect schemes mean the API expects authorization metadata (RFC 8414/9728). */
export function declaresOAuth(spec: Record<string, unknown> | null): boolean {
  if (spec === null) return false;
  const components = isRecord(spec.components) ? spec.components : {};
  const schemes = isRecord(components.securitySchemes) ? Object.values(components.securitySchemes) : [];
  return schemes.some((scheme) => isRecord(scheme) && (scheme.type === "oauth2" || scheme.type === "openIdConnect"));
}
