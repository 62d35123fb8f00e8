import { type CheckContext, defineCheck, judge, notApplicable } from "../../check-types.ts";
import { loadPricing } from "../../documents/agent-docs.ts";
import { loadApiCatalog } from "../../documents/catalogs.ts";
import { sampleTargets } from "../../documents/sampling.ts";
import { loadHome } from "../../documents/site.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { isRecord, parseJson } from "../../parse/json.ts";
import { parseLinkHeader } from "../../parse/link-header.ts";
import { isJsonMediaType, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import { linksetTargets } from "../../remote/linkset.ts";

const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const MAX_SCHEMAS = 3;
const MAX_INSTANCES = 4;

/** A schema's response, or null when the request budget left it unasked. */
async function readSchema(context: CheckContext, url: string): Promise<ScanResponse | null> {
  try {
    return await context.trail.get(url, { accept: "application/schema+json, application/json;q=0.9" });
  } catch (error) {
    if (error instanceof ScanFetchError && error.kind === "request-budget") return null;
    throw error;
  }
}

/** The `$schema` a JSON document names, when it is a URL. */
function namedSchema(response: ScanResponse): { url: string; instance: Record<string, unknown> } | null {
  if (!isSuccess(response)) return null;
  const json = parseJson(response.text);
  if (!json.ok || !isRecord(json.value) || typeof json.value.$schema !== "string" || !URL.canParse(json.value.$schema))
    return null;
  return { url: new URL(json.value.$schema).href, instance: json.value };
}

/**
 * The site's own JSON Schemas: those its JSON documents name in `$schema` (api-catalog service-meta and status targets,
 * pricing.json), each with the document to check against it, then describedby links (api-catalog, Link header).
 */
async function linkedSchemas(
  context: CheckContext,
): Promise<Array<{ url: string; instance: Record<string, unknown> | null }>> {
  const found = new Map<string, Record<string, unknown> | null>();
  const { linkset } = await loadApiCatalog(context);
  const metaDocuments = (
    linkset === null ? [] : [...linksetTargets(linkset, "service-meta"), ...linksetTargets(linkset, "status")]
  ).filter((target) => target.type === undefined || isJsonMediaType(target.type));
  const sample = await sampleTargets(context, metaDocuments, {
    url: (target) => target.resolved,
    limit: MAX_INSTANCES,
    accept: () => "application/json",
  });
  const responses = sample.answered.map((result) => result.response);
  const pricing = await loadPricing(context);
  for (const named of [...responses, pricing.response].map(namedSchema))
    if (named !== null && !found.has(named.url)) found.set(named.url, named.instance);
  for (const target of linkset === null ? [] : linksetTargets(linkset, "describedby"))
    if (target.type === "application/schema+json" && !found.has(target.resolved)) found.set(target.resolved, null);
  const { response } = await loadHome(context);
  for (const link of parseLinkHeader(response.headers.link, response.url))
    if (link.rels.includes("describedby") && link.type === "application/schema+json" && !found.has(link.href))
      found.set(link.href, null);
  return [...found]
    .filter(([url]) => new URL(url).origin === context.target.origin)
    .map(([url, instance]) => ({ url, instance }));
}

export const schemasValid = defineCheck({
  id: "schemas.valid",
  samples: true,
  requests: "`$schema` and `describedby` targets",
  passes:
    "JSON Schema 2020-12 that parses, with an absolute `$id` equal to its URL (up to 3 schemas; one the request budget leaves unread is named in a note, not judged)",
  title: "Linked JSON Schemas are 2020-12 with an $id equal to their URL",
  category: "api-hygiene",
  severity: "medium",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    'Publish each custom JSON Schema with $schema 2020-12 and an absolute $id equal to the URL it is served from, as application/schema+json, and link it with rel="describedby".',
  prompt:
    'For every JSON Schema we publish under /schemas/: set "$schema": "https://json-schema.org/draft/2020-12/schema", set "$id" to the exact absolute URL it is served from, serve it as application/schema+json, and make the documents it describes validate against it.',
  specUrls: [
    "https://json-schema.org/draft/2020-12/json-schema-core",
    "https://datatracker.ietf.org/doc/draft-ietf-httpapi-rest-api-mediatypes/",
  ],
  async run(context) {
    const schemas = (await linkedSchemas(context)).slice(0, MAX_SCHEMAS);
    if (schemas.length === 0) return notApplicable("the site links no JSON Schemas of its own");
    const errors: string[] = [];
    const cautions: string[] = [];
    const unread: string[] = [];
    for (const { url, instance } of schemas) {
      const response = await readSchema(context, url);
      // A schema the budget left unread is a sample not taken: the others are judged, and the message says so.
      const path = new URL(url).pathname;
      if (response === null) {
        unread.push(path);
        continue;
      }
      const json = isSuccess(response) ? parseJson(response.text) : null;
      if (json === null || !json.ok || !isRecord(json.value)) {
        errors.push(`${path} ${isSuccess(response) ? "is not a JSON object" : `answers ${response.status}`}`);
        continue;
      }
      const schema = json.value;
      const type = mediaTypeOf(response);
      if (type !== "application/schema+json" && type !== "application/json")
        errors.push(`${path} is served as ${type || "no Content-Type"}`);
      else if (type === "application/json")
        cautions.push(`${path} is application/json rather than application/schema+json`);
      if (schema.$schema !== JSON_SCHEMA_2020_12)
        (typeof schema.$schema === "string" ? cautions : errors).push(
          `${path} declares $schema ${String(schema.$schema ?? "(none)")}, not 2020-12`,
        );
      if (schema.$id !== response.url)
        errors.push(`${path} has $id ${String(schema.$id ?? "(none)")}, not its URL ${response.url}`);
      const required = Array.isArray(schema.required)
        ? schema.required.filter((key): key is string => typeof key === "string")
        : [];
      const absent = instance === null ? [] : required.filter((key) => !(key in instance));
      if (absent.length > 0) errors.push(`the document using ${path} lacks required member(s) ${absent.join(", ")}`);
    }
    const read = schemas.length - unread.length;
    if (read === 0)
      throw new ScanFetchError("request-budget", "no linked schema could be read within the scan's request budget", "");
    const notes = unread.length === 0 ? [] : [`${unread.join(", ")} not read to stay within the request budget`];
    return judge({ problems: errors, cautions, notes }, `${read} schema(s): 2020-12, $id equals the served URL`);
  },
});

export const schemaChecks = [schemasValid];
