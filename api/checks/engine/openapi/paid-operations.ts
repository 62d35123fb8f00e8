import { operationsOf } from "../openapi-lint.ts";
import { isRecord } from "../parse/json.ts";
import { dereferenced } from "./references.ts";
import { baseOf, openApiServers, operationPath } from "./servers.ts";

/** A documented-paid operation the scan can ask, at its full URL on the checked origin. */
export interface ProbeablePaidOperation {
  url: URL;
  /** `GET /pet/{petId}`, as the description writes it. */
  operation: string;
}

export interface PaidOperations {
  probeable: ProbeablePaidOperation[];
  /** Documented as paid but not asked, each with why: `GET /items/{id} (no example for id)`. */
  unprobed: string[];
}

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean";

/** The first value of an `examples` member: an array (JSON Schema) or a map of Example Objects (OpenAPI). */
function firstExample(spec: unknown, examples: unknown): unknown {
  if (Array.isArray(examples)) return examples[0];
  if (!isRecord(examples)) return undefined;
  const first = dereferenced(spec, Object.values(examples)[0]);
  return isRecord(first) ? first.value : undefined;
}

/**
 * A value for a parameter, from what the description offers, in order: the parameter's `example`, its first
 * `examples`, then its schema's `example`, first `examples`, first `enum` value and `default` (Swagger 2.0 puts
 * `enum`, `default` and `x-example` on the parameter itself).
 */
function sampleValue(spec: unknown, parameter: Record<string, unknown>): Scalar | null {
  const dereferencedSchema = dereferenced(spec, parameter.schema);
  const schema = isRecord(dereferencedSchema) ? dereferencedSchema : {};
  const firstOf = (values: unknown): unknown => (Array.isArray(values) ? values[0] : undefined);
  const candidates = [
    parameter.example,
    firstExample(spec, parameter.examples),
    parameter["x-example"],
    firstOf(parameter.enum),
    parameter.default,
    schema.example,
    firstExample(spec, schema.examples),
    firstOf(schema.enum),
    schema.default,
  ];
  return candidates.find(isScalar) ?? null;
}

/** Path parameters of an operation and of its path item, the operation's winning on name (OpenAPI 3.x §4.8.10). */
function pathParameters(spec: unknown, pathItem: unknown, operation: Record<string, unknown>) {
  const declared = [
    ...(isRecord(pathItem) && Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ]
    .map((parameter) => dereferenced(spec, parameter))
    .filter((parameter): parameter is Record<string, unknown> => isRecord(parameter) && parameter.in === "path");
  return new Map(declared.map((parameter) => [String(parameter.name), parameter]));
}

/** The path with every `{name}` filled from the description's examples, or the names it gives no value for. */
function filledPath(
  spec: Record<string, unknown>,
  path: string,
  operation: Record<string, unknown>,
): { path: string } | { missing: string[] } {
  const paths = isRecord(spec.paths) ? spec.paths : {};
  const parameters = pathParameters(spec, paths[path], operation);
  const missing: string[] = [];
  const filled = path.replace(/\{([^{}]+)\}/g, (_whole, name: string) => {
    const parameter = parameters.get(name);
    const value = parameter === undefined ? null : sampleValue(spec, parameter);
    if (value === null) {
      missing.push(name);
      return "";
    }
    return encodeURIComponent(String(value));
  });
  return missing.length > 0 ? { missing } : { path: filled };
}

/**
 * The operations the description documents a `402` for, the description's own word that they are paid: each at its URL
 * on the server that is on the checked origin (the server's base path kept), path parameters filled from examples. The
 * scan asks only with GET (it calls nothing that could change state) and only on the origin it checks; every other
 * documented-paid operation is named with why it was not asked.
 */
export function paidOperations(spec: Record<string, unknown>, documentUrl: string, origin: string): PaidOperations {
  const servers = openApiServers(spec, documentUrl);
  const server = servers.find((candidate) => candidate.url.origin === origin);
  const result: PaidOperations = { probeable: [], unprobed: [] };
  for (const entry of operationsOf(spec)) {
    const responses = dereferenced(spec, entry.operation.responses);
    if (!isRecord(responses) || !("402" in responses)) continue;
    const operation = `${entry.method.toUpperCase()} ${entry.path}`;
    if (entry.method !== "get") {
      result.unprobed.push(`${operation} (the scan sends only GET)`);
      continue;
    }
    if (server === undefined) {
      const elsewhere = servers[0] === undefined ? "no usable server" : `its server ${baseOf(servers[0].url)}`;
      result.unprobed.push(`${operation} (${elsewhere} is not on the checked origin)`);
      continue;
    }
    const filled = filledPath(spec, entry.path, entry.operation);
    if ("missing" in filled) {
      result.unprobed.push(`${operation} (no example for ${filled.missing.join(", ")})`);
      continue;
    }
    result.probeable.push({ url: new URL(operationPath(server.url, filled.path), server.url.origin), operation });
  }
  return result;
}
