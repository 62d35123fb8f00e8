import { ARD_ENTRY_TYPES } from "../../src/schemas/catalogs.ts";
import { isJson, type Json } from "./openapi.ts";

/**
 * The rules Lighthouse's `ard-schema` audit applies to an AI catalog (core/audits/agentic/ard-schema.js,
 * on its port of ARD's conformance test, third-party/ard/ard.js), restated here: any error scores 0,
 * any warning 0.5. Returns the findings as `[entry] message`, errors first.
 */
export function ardFindings(catalog: unknown): { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!isJson(catalog)) return { errors: ["the manifest is not a JSON object"], warnings };
  if (catalog.specVersion !== "1.0") (catalog.specVersion ? warnings : errors).push("specVersion must be 1.0");
  if ("collections" in catalog) errors.push("top-level collections were removed in ADR-0003");
  const host = catalog.host;
  if (host !== undefined) {
    if (!isJson(host) || typeof host.displayName !== "string") errors.push("host needs a displayName");
    else {
      const extra = Object.keys(host).filter(
        (key) => !["displayName", "identifier", "documentationUrl", "logoUrl", "trustManifest"].includes(key),
      );
      if (extra.length > 0) errors.push(`host has properties the schema forbids: ${extra.join(", ")}`);
    }
  }
  const extraRoot = Object.keys(catalog).filter((key) => !["specVersion", "host", "entries"].includes(key));
  if (extraRoot.length > 0) errors.push(`properties the schema forbids at the root: ${extraRoot.join(", ")}`);
  if (!Array.isArray(catalog.entries)) return { errors: [...errors, "entries must be an array"], warnings };
  catalog.entries.forEach((entry: unknown, index: number) => {
    const item: Json = isJson(entry) ? entry : {};
    const label = String(item.displayName ?? item.identifier ?? `Entry #${index}`);
    const identifier = typeof item.identifier === "string" ? item.identifier : "";
    // The schema's pattern, and the stricter URN the conformance test parses.
    if (!/^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/.test(identifier))
      errors.push(`[${label}] identifier must match the schema's urn:air: pattern`);
    if (!/^urn:air:([a-zA-Z0-9.-]+)(?::([a-zA-Z0-9._:-]+))?:([a-zA-Z0-9._-]+)$/.test(identifier))
      errors.push(`[${label}] identifier is not urn:air:<publisher>:<namespace>:<name>`);
    if (!item.displayName) errors.push(`[${label}] missing displayName`);
    if (typeof item.type !== "string") errors.push(`[${label}] missing type`);
    else if (!(ARD_ENTRY_TYPES as readonly string[]).includes(item.type))
      warnings.push(`[${label}] media type ${item.type} is not a standard discovery type`);
    if ("url" in item === "data" in item) errors.push(`[${label}] must have exactly one of url and data`);
    const queries = item.representativeQueries;
    if (!Array.isArray(queries) || queries.length === 0) warnings.push(`[${label}] missing representativeQueries`);
    else {
      if (queries.length < 2 || queries.length > 5) errors.push(`[${label}] needs 2 to 5 representativeQueries`);
      if (queries.some((query) => typeof query !== "string")) errors.push(`[${label}] a query is not a string`);
    }
    if ("trustManifest" in item && !(isJson(item.trustManifest) && item.trustManifest.identity))
      errors.push(`[${label}] trustManifest needs an identity`);
  });
  return { errors, warnings };
}
