import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export type Json = Record<string, unknown>;

export const isJson = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** One operation of an OpenAPI document, with the absolute URL template its path item resolves to. */
export interface DocumentedOperation {
  id: string;
  method: string;
  /** Absolute URL with `{name}` placeholders: the path item's server (or the document's) plus the path key. */
  template: string;
  operation: Json;
}

export function operationsOf(document: Json): DocumentedOperation[] {
  const paths = isJson(document.paths) ? document.paths : {};
  const topServers = Array.isArray(document.servers) ? document.servers : [];
  const found: DocumentedOperation[] = [];
  for (const [key, item] of Object.entries(paths)) {
    if (!isJson(item)) continue;
    // OpenAPI 3.1 §4.8.9: a path item's own `servers` replace the document's for its operations.
    const servers = Array.isArray(item.servers) ? item.servers : topServers;
    const server = isJson(servers[0]) ? String(servers[0].url) : "";
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const operation = item[method];
      if (isJson(operation))
        found.push({
          id: String(operation.operationId),
          method: method.toUpperCase(),
          template: `${server}${key}`,
          operation,
        });
    }
  }
  return found;
}

/** Follows a local `$ref` (`#/components/...`). */
export function resolveRef(document: Json, value: Json): Json {
  const ref = value.$ref;
  if (typeof ref !== "string") return value;
  let current: unknown = document;
  for (const key of ref.slice(2).split("/")) current = isJson(current) ? current[key] : undefined;
  if (!isJson(current)) throw new Error(`${ref} does not resolve`);
  return current;
}

const mediaType = (type: string) => type.split(";")[0]?.trim().toLowerCase() ?? "";

/**
 * Checks one response against the operation's documentation: the status is listed (not just `default`),
 * the content type is one it documents, the documented headers are there, and the body validates
 * against the documented schema (JSON Schema 2020-12, OpenAPI 3.1's dialect). Returns the problems found.
 */
export class ResponseChecker {
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false });
  readonly #compiled = new Map<string, ValidateFunction>();

  private readonly document: Json;

  constructor(document: Json) {
    this.document = document;
    addFormats.default(this.#ajv);
  }

  async check(documented: DocumentedOperation, response: Response): Promise<string[]> {
    const label = `${documented.id} ${response.status}`;
    const responses = isJson(documented.operation.responses) ? documented.operation.responses : {};
    const listed = responses[String(response.status)];
    if (!isJson(listed)) return [`${label}: status not documented (documented: ${Object.keys(responses).join(", ")})`];
    const spec = resolveRef(this.document, listed);
    const problems: string[] = [];
    for (const header of Object.keys(isJson(spec.headers) ? spec.headers : {})) {
      // Retry-After on a 503 rides only on the answers that have a time to give.
      if (response.status < 300 && response.headers.get(header) === null)
        problems.push(`${label}: documented header ${header} is missing`);
    }
    const content = isJson(spec.content) ? spec.content : null;
    const body = await response.text();
    if (content === null) {
      if (body !== "") problems.push(`${label}: no body is documented, got ${body.slice(0, 80)}`);
      return problems;
    }
    const served = mediaType(response.headers.get("content-type") ?? "");
    const entry = Object.entries(content).find(([type]) => mediaType(type) === served);
    if (!entry) return [...problems, `${label}: served as ${served}, documented ${Object.keys(content).join(", ")}`];
    const schema = isJson(entry[1]) && isJson(entry[1].schema) ? entry[1].schema : null;
    if (schema === null || !served.endsWith("json")) return problems;
    const validate = this.#validator(schema);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [...problems, `${label}: the ${served} body is not JSON`];
    }
    if (!validate(value))
      problems.push(
        `${label}: ${(validate.errors ?? [])
          .slice(0, 3)
          .map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`)
          .join("; ")}`,
      );
    return problems;
  }

  #validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.#compiled.get(key);
    if (!validate) {
      validate = this.#ajv.compile(resolveRef(this.document, schema));
      this.#compiled.set(key, validate);
    }
    return validate;
  }
}
