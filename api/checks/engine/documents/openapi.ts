import { parse as parseYaml } from "yaml";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { isRecord, parseJson } from "../parse/json.ts";
import { parseLinkHeader } from "../parse/link-header.ts";
import { isSuccess } from "../parse/media-type.ts";
import { linksetTargets } from "../remote/linkset.ts";
import { loadApiCatalog } from "./catalogs.ts";
import { type DocumentContext, type FetchedDocument, fetchDocument, pathUrl } from "./document.ts";
import { loadHome, loadLlmsTxt } from "./site.ts";

export const ACCEPT_OPENAPI =
  "application/vnd.oai.openapi+json, application/openapi+json, application/json;q=0.9, application/openapi+yaml;q=0.8, application/yaml;q=0.8, */*;q=0.1";

export interface OpenApiDiscovery {
  document: FetchedDocument | null;
  spec: Record<string, unknown> | null;
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

export function parseOpenApiBody(text: string): Record<string, unknown> | null {
  const trimmed = text.trimStart();
  let value: unknown = null;
  if (trimmed.startsWith("{")) {
    const json = parseJson(trimmed);
    value = json.ok ? json.value : null;
  } else {
    try {
      value = parseYaml(trimmed, { maxAliasCount: 100 });
    } catch {
      value = null;
    }
  }
  if (!isRecord(value)) return null;
  return typeof value.openapi === "string" || typeof value.swagger === "string" ? value : null;
}

export async function findOpenApi(context: DocumentContext): Promise<OpenApiDiscovery> {
  const seen = new Set<string>();
  const attempts: FetchedDocument[] = [];
  for (const candidate of await candidates(context)) {
    if (seen.has(candidate.url) || seen.size >= MAX_ATTEMPTS) continue;
    seen.add(candidate.url);
    const document = await fetchDocument(context, candidate.url, ACCEPT_OPENAPI);
    attempts.push(document);
    if (!isSuccess(document.response) || document.state === "fallback") continue;
    const spec = parseOpenApiBody(document.response.text);
    if (spec !== null) return { document, spec, source: candidate.source, attempts };
  }
  return { document: null, spec: null, source: null, attempts };
}
