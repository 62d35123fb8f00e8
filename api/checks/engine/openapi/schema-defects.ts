import { isRecord } from "../parse/json.ts";
import { type SchemaViolation, validateOpenApiSchema } from "./validate-in-worker.ts";

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]);
const JSON_SCHEMA_TYPES = new Set(["array", "boolean", "integer", "number", "object", "string", "null"]);
/** Alternatives the schema tried and the site's document did not take: restating them would bury the real defect. */
const NOISE = new Set(["oneOf", "anyOf", "if", "not", "$ref"]);
const MAX_DEFECTS = 20;

function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `/paths/~1pets/get/responses/200` → `GET /pets responses.200`. */
export function describePointer(pointer: string): string {
  const segments = pointer.split("/").slice(1).map(unescapeSegment);
  if (segments[0] === "paths" && segments[1] !== undefined) {
    const method = segments[2] !== undefined && METHODS.has(segments[2]) ? segments[2].toUpperCase() : null;
    const rest = segments.slice(method === null ? 2 : 3).join(".");
    return [method, segments[1], rest].filter((part) => part !== null && part !== "").join(" ");
  }
  return segments.length === 0 ? "the document" : segments.join(".");
}

function describeError(error: SchemaViolation): string | null {
  if (NOISE.has(error.keyword)) return null;
  const where = describePointer(error.instancePath);
  const { params } = error;
  if (error.keyword === "required") {
    // A $ref would have been an alternative to the whole object, not a missing member.
    if (params.missingProperty === "$ref") return null;
    return `${where} has no ${String(params.missingProperty)}`;
  }
  const extra = params.additionalProperty ?? params.unevaluatedProperty;
  if (typeof extra === "string") {
    if (error.instancePath === "/paths") return `path "${extra}" does not start with /`;
    return `${where} has an unknown member "${extra}"`;
  }
  // Unknown types are reported by unknownTypes for every version alike, with the offending value.
  if (error.keyword === "enum" && error.instancePath.endsWith("/type")) return null;
  return `${where} ${error.message ?? "is invalid"}`;
}

/** `type` values that are not JSON Schema types, which the 3.1 and 3.2 schemas leave to the schema dialect. */
function unknownTypes(value: unknown, pointer: string, found: string[], depth = 0): void {
  if (depth > 40 || found.length >= MAX_DEFECTS) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      unknownTypes(item, `${pointer}/${index}`, found, depth + 1);
    });
    return;
  }
  if (!isRecord(value)) return;
  for (const [key, member] of Object.entries(value)) {
    const here = `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    if (key === "type" && (typeof member === "string" || Array.isArray(member))) {
      const types = typeof member === "string" ? [member] : member;
      const unknown = types.filter((type) => typeof type !== "string" || !JSON_SCHEMA_TYPES.has(type));
      if (unknown.length > 0 && isSchemaPointer(pointer))
        found.push(`${describePointer(pointer)} has an unknown type "${unknown.map(String).join(", ")}"`);
    } else unknownTypes(member, here, found, depth + 1);
  }
}

/** Within a schema object: under `schema`, `schemas`, `properties`, `items` and their kin, not a security scheme. */
function isSchemaPointer(pointer: string): boolean {
  return /\/(schema|schemas|properties|items|additionalProperties|allOf|anyOf|oneOf|not|prefixItems)(\/|$)/.test(
    pointer,
  );
}

/**
 * Every defect of an OpenAPI document against its version's schema, in words an author can act on: a path without a
 * leading slash, a response without a description, an unknown type. An empty list means it validates.
 */
export async function openApiSchemaDefects(spec: Record<string, unknown>): Promise<string[]> {
  // The OpenAPI specification's own JSON Schemas (2.0 to 3.2), through @seriousme/openapi-schema-validator.
  const result = await validateOpenApiSchema(spec);
  const defects: string[] = [];
  if (!result.valid) {
    if (typeof result.errors === "string") defects.push(result.errors);
    else
      for (const error of result.errors ?? []) {
        const described = describeError(error);
        if (described !== null && !defects.includes(described)) defects.push(described);
      }
  }
  const types: string[] = [];
  unknownTypes(spec, "", types);
  return [...defects, ...types].slice(0, MAX_DEFECTS);
}
