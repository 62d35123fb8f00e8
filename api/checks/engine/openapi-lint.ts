import { isRecord } from "./parse/json.ts";

export interface OpenApiLint {
  errors: string[];
  cautions: string[];
  operations: number;
}

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

function resolvePointer(spec: unknown, pointer: string): boolean {
  let current: unknown = spec;
  for (const raw of pointer.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isRecord(current)) current = current[key];
    else return false;
    if (current === undefined) return false;
  }
  return true;
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

/** Structural checks an agent depends on (landscape §3.12); not a full schema validation. */
export function lintOpenApi(spec: Record<string, unknown>, isAcceptableServer: (url: URL) => boolean): OpenApiLint {
  const errors: string[] = [];
  const cautions: string[] = [];
  const version = typeof spec.openapi === "string" ? spec.openapi : null;
  if (version === null) errors.push(`it is Swagger ${String(spec.swagger)}, not OpenAPI 3.x`);
  else if (!/^3\.[0-2]\.\d+$/.test(version)) errors.push(`openapi "${version}" is not 3.0, 3.1 or 3.2`);
  const info = isRecord(spec.info) ? spec.info : null;
  if (info === null || typeof info.title !== "string" || typeof info.version !== "string")
    errors.push("info.title and info.version are required");
  const operations = operationsOf(spec);
  if (operations.length === 0) errors.push("paths lists no operations");
  const servers = Array.isArray(spec.servers) ? spec.servers.filter(isRecord) : [];
  if (servers.length === 0) errors.push("no servers are declared");
  for (const server of servers) {
    const url = typeof server.url === "string" ? server.url : "";
    if (!URL.canParse(url)) errors.push(`server "${url}" is not an absolute URL`);
    else if (!isAcceptableServer(new URL(url))) cautions.push(`server ${url} is not https`);
  }
  const ids = operations
    .map((entry) => entry.operation.operationId)
    .filter((id): id is string => typeof id === "string" && id !== "");
  if (ids.length < operations.length) errors.push(`${operations.length - ids.length} operation(s) have no operationId`);
  if (new Set(ids).size < ids.length) errors.push("operationIds are not unique");
  const undescribed = operations.filter(
    (entry) => typeof entry.operation.summary !== "string" && typeof entry.operation.description !== "string",
  );
  if (undescribed.length > 0) cautions.push(`${undescribed.length} operation(s) have neither summary nor description`);
  const withoutErrors = operations.filter(
    (entry) =>
      !(
        isRecord(entry.operation.responses) &&
        Object.keys(entry.operation.responses).some((code) => ERROR_RESPONSE.test(code))
      ),
  );
  if (withoutErrors.length > 0)
    errors.push(
      `${withoutErrors.length} operation(s) document no error response, e.g. ${withoutErrors[0]?.method.toUpperCase() ?? ""} ${withoutErrors[0]?.path ?? ""}`,
    );
  const components = isRecord(spec.components) ? spec.components : {};
  const schemes = isRecord(components.securitySchemes) ? Object.keys(components.securitySchemes) : [];
  const used = new Set([
    ...securityNames(spec.security),
    ...operations.flatMap((entry) => securityNames(entry.operation.security)),
  ]);
  const undeclared = [...used].filter((name) => !schemes.includes(name));
  if (undeclared.length > 0) errors.push(`security uses undeclared scheme(s): ${undeclared.join(", ")}`);
  const refs = new Set<string>();
  collectRefs(spec, refs);
  const broken = [...refs].filter((ref) => ref.startsWith("#/") && !resolvePointer(spec, ref));
  if (broken.length > 0) errors.push(`${broken.length} local $ref(s) point nowhere, e.g. ${broken[0] ?? ""}`);
  return { errors, cautions, operations: operations.length };
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
