import { parse as parseYaml } from "yaml";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { isRecord, parseJson } from "../parse/json.ts";
import { parseLinkHeader } from "../parse/link-header.ts";
import { isSuccess, mediaTypeOf } from "../parse/media-type.ts";
import { linksetTargets } from "../remote/linkset.ts";
import { loadApiCatalog } from "./catalogs.ts";
import { type DocumentContext, describeState, type FetchedDocument, fetchDocument, pathUrl } from "./document.ts";
import { loadHome, loadLlmsTxt } from "./site.ts";

export const ACCEPT_OPENAPI =
  "application/vnd.oai.openapi+json, application/openapi+json, application/json;q=0.9, application/openapi+yaml;q=0.8, application/yaml;q=0.8, */*;q=0.1";

export interface OpenApiDiscovery {
  /** The site's OpenAPI document when one was found, whether or not it is a valid one (found ≠ valid, DESIGN §8). */
  document: FetchedDocument | null;
  /** The parsed description, when the document is an OpenAPI (or Swagger) document at all. */
  spec: Record<string, unknown> | null;
  /** Why a found document is not a readable OpenAPI description, when `spec` is null. */
  unreadable: string | null;
  /** How the description was found, for the report. */
  source: string | null;
  attempts: FetchedDocument[];
}

const MAX_ATTEMPTS = 4;

type Candidate = { url: string; source: string };

/** Where agents look for an OpenAPI description, in order (landscape §3.12): Link header, api-catalog, llms.txt, common paths. */
async function candidates(context: DocumentContext): Promise<Candidate[]> {
  const readers: Array<() => Promise<Candidate[]>> = [
    async () => {
      const home = await loadHome(context);
      return parseLinkHeader(home.response.headers.link, home.response.url)
        .filter((link) => link.rels.includes("service-desc"))
        .map((link) => ({ url: link.href, source: "the Link rel=service-desc header on /" }));
    },
    async () => {
      const { linkset } = await loadApiCatalog(context);
      return linkset === null
        ? []
        : linksetTargets(linkset, "service-desc").map((target) => ({
            url: target.resolved,
            source: "the api-catalog's service-desc",
          }));
    },
    async () => {
      const { llms, document } = await loadLlmsTxt(context);
      return (llms?.links ?? [])
        .filter(
          (link) =>
            /(openapi|swagger)[^/]*\.(json|ya?ml)$/i.test(link.url) && URL.canParse(link.url, document.response.url),
        )
        .map((link) => ({ url: new URL(link.url, document.response.url).href, source: "a link in llms.txt" }));
    },
  ];
  const advertised: Candidate[] = [];
  let failure: ScanFetchError | null = null;
  for (const read of readers) {
    try {
      advertised.push(...(await read()));
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
      failure ??= error;
    }
  }
  // Nothing advertised and a source unreadable: the answer is unknown, not "no OpenAPI".
  if (advertised.length === 0 && failure !== null) throw failure;
  return [
    ...advertised,
    { url: pathUrl(context, "/openapi.json"), source: "the common path /openapi.json" },
    { url: pathUrl(context, "/openapi.yaml"), source: "the common path /openapi.yaml" },
  ];
}

export type OpenApiReading = { ok: true; spec: Record<string, unknown> } | { ok: false; error: string };

/** JSON or YAML with an `openapi` (or Swagger `swagger`) member; otherwise why not. */
export function readOpenApiBody(text: string): OpenApiReading {
  const trimmed = text.trimStart();
  let value: unknown = null;
  if (trimmed.startsWith("{")) {
    const json = parseJson(trimmed);
    if (!json.ok) return { ok: false, error: `it is not valid JSON: ${json.error}` };
    value = json.value;
  } else {
    try {
      value = parseYaml(trimmed, { maxAliasCount: 100 });
    } catch (error) {
      const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
      return { ok: false, error: `it is neither JSON nor valid YAML: ${reason}` };
    }
  }
  if (!isRecord(value)) return { ok: false, error: "it is not a JSON or YAML object" };
  if (typeof value.openapi === "string" || typeof value.swagger === "string") return { ok: true, spec: value };
  return { ok: false, error: 'it has no "openapi" version field' };
}

export function parseOpenApiBody(text: string): Record<string, unknown> | null {
  const reading = readOpenApiBody(text);
  return reading.ok ? reading.spec : null;
}

const OPENAPI_MEDIA_TYPE = /openapi|yaml/;

/**
 * The first candidate that is an OpenAPI description. A candidate the site advertises, or one that plainly tries to
 * be one (an OpenAPI or YAML media type, or "openapi" near its start), is the site's OpenAPI document even when it
 * does not parse: it is then reported as found but unreadable, never as missing.
 */
export async function findOpenApi(context: DocumentContext): Promise<OpenApiDiscovery> {
  const seen = new Set<string>();
  const attempts: FetchedDocument[] = [];
  let broken: { document: FetchedDocument; source: string; error: string } | null = null;
  for (const candidate of await candidates(context)) {
    if (seen.has(candidate.url) || seen.size >= MAX_ATTEMPTS) continue;
    seen.add(candidate.url);
    const document = await fetchDocument(context, candidate.url, ACCEPT_OPENAPI);
    attempts.push(document);
    if (!isSuccess(document.response) || document.state === "fallback") continue;
    const reading =
      document.state === "broken"
        ? { ok: false as const, error: describeState(document, "the document") }
        : readOpenApiBody(document.response.text);
    if (reading.ok) return { document, spec: reading.spec, unreadable: null, source: candidate.source, attempts };
    const advertised = !candidate.source.startsWith("the common path");
    const intended =
      OPENAPI_MEDIA_TYPE.test(mediaTypeOf(document.response)) ||
      /\b(openapi|swagger)\b/i.test(document.response.text.slice(0, 2_000));
    if ((advertised || intended) && broken === null)
      broken = { document, source: candidate.source, error: reading.error };
  }
  if (broken !== null)
    return { document: broken.document, spec: null, unreadable: broken.error, source: broken.source, attempts };
  return { document: null, spec: null, unreadable: null, source: null, attempts };
}
