import { describeIssues } from "../parse/json.ts";
import { type AiCatalog, type AiCatalogEntry, AiCatalogEntrySchema, AiCatalogSchema } from "../remote/ai-catalog.ts";
import { type Linkset, parseLinkset } from "../remote/linkset.ts";
import { type DocumentContext, fetchJsonDocument, type JsonDocument, pathUrl } from "./document.ts";

export const ACCEPT_LINKSET = "application/linkset+json, application/json;q=0.9";
export const ACCEPT_AI_CATALOG = "application/ai-catalog+json, application/json;q=0.9";

export interface LoadedApiCatalog {
  document: JsonDocument;
  linkset: Linkset | null;
}

/** RFC 9727 §2: the catalog lives at `/.well-known/api-catalog`. */
export async function loadApiCatalog(context: DocumentContext): Promise<LoadedApiCatalog> {
  const document = await fetchJsonDocument(context, pathUrl(context, "/.well-known/api-catalog"), ACCEPT_LINKSET);
  const linkset = document.json?.ok === true ? parseLinkset(document.json.value, document.response.url) : null;
  return { document, linkset };
}

export interface LoadedAiCatalog {
  document: JsonDocument;
  catalog: AiCatalog | null;
  /** Entries that passed validation, with their index in the document. */
  entries: Array<AiCatalogEntry & { index: number; resolvedUrl: string | null }>;
  issues: string[];
}

function readCatalog(document: JsonDocument): LoadedAiCatalog {
  if (document.json === null) return { document, catalog: null, entries: [], issues: [] };
  if (!document.json.ok) return { document, catalog: null, entries: [], issues: [`not JSON: ${document.json.error}`] };
  const parsed = AiCatalogSchema.safeParse(document.json.value);
  if (!parsed.success) return { document, catalog: null, entries: [], issues: [describeIssues(parsed.error)] };
  const issues: string[] = [];
  const entries: LoadedAiCatalog["entries"] = [];
  parsed.data.entries.forEach((raw, index) => {
    const entry = AiCatalogEntrySchema.safeParse(raw);
    if (!entry.success) {
      issues.push(`entries[${index}]: ${describeIssues(entry.error, 2)}`);
      return;
    }
    entries.push({ ...entry.data, index, resolvedUrl: resolveEntryUrl(entry.data, document.response.url) });
  });
  return { document, catalog: parsed.data, entries, issues };
}

function resolveEntryUrl(entry: AiCatalogEntry, base: string): string | null {
  if (entry.url === undefined) return null;
  try {
    return new URL(entry.url, base).href;
  } catch {
    return null;
  }
}

/**
 * Both catalog generations: `/.well-known/ai-catalog.json` (AI Catalog, ARD v0.9) and `/.well-known/ard.json`
 * (ARD v0.91, which consumers MUST fetch).
 */
export async function loadAiCatalogs(
  context: DocumentContext,
): Promise<{ aiCatalog: LoadedAiCatalog; ard: LoadedAiCatalog }> {
  const [aiCatalog, ard] = await Promise.all([
    fetchJsonDocument(context, pathUrl(context, "/.well-known/ai-catalog.json"), ACCEPT_AI_CATALOG),
    fetchJsonDocument(context, pathUrl(context, "/.well-known/ard.json"), ACCEPT_AI_CATALOG),
  ]);
  return { aiCatalog: readCatalog(aiCatalog), ard: readCatalog(ard) };
}

/** Valid entries of whichever catalogs were found, without duplicates by identifier. */
export function catalogEntries(catalogs: {
  aiCatalog: LoadedAiCatalog;
  ard: LoadedAiCatalog;
}): LoadedAiCatalog["entries"] {
  const seen = new Set<string>();
  return [...catalogs.ard.entries, ...catalogs.aiCatalog.entries].filter((entry) => {
    if (seen.has(entry.identifier)) return false;
    seen.add(entry.identifier);
    return true;
  });
}
