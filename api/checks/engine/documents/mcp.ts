import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { isRecord } from "../parse/json.ts";
import { AiCatalogEntrySchema, entryMediaType, MCP_CARD_MEDIA_TYPE } from "../remote/ai-catalog.ts";
import { cardEndpoints, LegacyMcpCardSchema, McpCardV1Schema } from "../remote/mcp-card.ts";
import { catalogEntries, loadAiCatalogs } from "./catalogs.ts";
import { ACCEPT_JSON, type DocumentContext, fetchJsonDocument, type JsonDocument, pathUrl } from "./document.ts";

export const ACCEPT_MCP_CARD = `${MCP_CARD_MEDIA_TYPE}, application/json;q=0.9`;

/** Where a card was looked for: its generation decides what "outdated" means. */
export type McpCardSource =
  | "ai-catalog"
  | "mcp-catalog"
  | "well-known-server-card"
  | "well-known-mcp-json"
  | "endpoint-server-card";

export interface LoadedMcpCard {
  url: string;
  source: McpCardSource;
  document: JsonDocument;
  /** The parsed body when the document was found and is a JSON object. */
  card: unknown;
}

export interface McpCardProbe {
  /** Every location that answered, whatever it answered. */
  cards: LoadedMcpCard[];
  /** Locations that did not answer at all (they never stop the probe of the others). */
  unreachable: Array<{ url: string; source: McpCardSource; error: ScanFetchError }>;
}

const MAX_CATALOG_CARDS = 2;

/** The draft MCP Catalog (experimental-ext-server-card docs/discovery.md): `{specVersion, entries[]}`, AI Catalog entries. */
async function mcpCatalogEntries(context: DocumentContext): Promise<string[]> {
  const document = await fetchJsonDocument(context, pathUrl(context, "/.well-known/mcp/catalog.json"), ACCEPT_JSON);
  const value = document.json?.ok === true ? document.json.value : null;
  const entries = isRecord(value) && Array.isArray(value.entries) ? value.entries : [];
  return entries.flatMap((raw) => {
    const entry = AiCatalogEntrySchema.safeParse(raw);
    if (!entry.success || entryMediaType(entry.data) !== MCP_CARD_MEDIA_TYPE || entry.data.url === undefined) return [];
    return URL.canParse(entry.data.url, document.response.url)
      ? [new URL(entry.data.url, document.response.url).href]
      : [];
  });
}

/**
 * Every generation of MCP server card (landscape §3.3): entries of the AI catalogs and of the draft MCP Catalog,
 * SEP-2127's `/.well-known/mcp/server-card.json`, SEP-1649's `/.well-known/mcp.json`, and the extension's
 * `<streamable-http-url>/server-card` for each endpoint a found card names. A refused or failed location never stops
 * the others (DESIGN §8): a catalog whose redirect was refused still leaves the card's own location to be fetched.
 */
export async function probeMcpCards(context: DocumentContext): Promise<McpCardProbe> {
  const probe: McpCardProbe = { cards: [], unreachable: [] };
  // The card locations' own failures come first: the checks quote the first one.
  const catalogFailures: McpCardProbe["unreachable"] = [];
  /** A location's failure to answer is kept aside: the next generation's location is probed all the same. */
  const settle = async <T>(
    source: McpCardSource,
    read: () => Promise<T>,
    failures = probe.unreachable,
  ): Promise<T | null> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
      failures.push({ url: error.url, source, error });
      return null;
    }
  };
  const [catalogs, mcpCatalog] = await Promise.all([
    settle("ai-catalog", () => loadAiCatalogs(context), catalogFailures),
    settle("mcp-catalog", () => mcpCatalogEntries(context), catalogFailures),
  ]);
  const fromCatalogs = [
    ...(catalogs === null
      ? []
      : catalogEntries(catalogs)
          .filter((entry) => entryMediaType(entry) === MCP_CARD_MEDIA_TYPE && entry.resolvedUrl !== null)
          .map((entry) => ({ url: entry.resolvedUrl ?? "", source: "ai-catalog" as const }))),
    ...(mcpCatalog ?? []).map((url) => ({ url, source: "mcp-catalog" as const })),
  ];
  const planned: Array<{ url: string; source: McpCardSource }> = [
    ...[...new Map(fromCatalogs.map((plan) => [plan.url, plan])).values()].slice(0, MAX_CATALOG_CARDS),
    { url: pathUrl(context, "/.well-known/mcp/server-card.json"), source: "well-known-server-card" },
    { url: pathUrl(context, "/.well-known/mcp.json"), source: "well-known-mcp-json" },
  ];
  const attempt = async (plan: { url: string; source: McpCardSource }): Promise<void> => {
    const card = await settle(plan.source, () => load(context, plan.url, plan.source));
    if (card !== null) probe.cards.push(card);
  };
  await Promise.all(planned.map(attempt));
  const known = new Set(planned.map((plan) => plan.url));
  const endpointCard = probe.cards
    .flatMap((card) => cardEndpoints(card.card, card.document.response.url))
    .map((endpoint) => `${endpoint.replace(/\/+$/, "")}/server-card`)
    .find((url) => !known.has(url));
  if (endpointCard !== undefined) await attempt({ url: endpointCard, source: "endpoint-server-card" });
  const order = new Map(planned.map((plan, index) => [plan.url, index]));
  probe.cards.sort((left, right) => (order.get(left.url) ?? planned.length) - (order.get(right.url) ?? planned.length));
  probe.unreachable.push(...catalogFailures);
  return probe;
}

/** The locations that answered; throws only when no location answered at all, so the verdict is unknown. */
export async function loadMcpCards(context: DocumentContext): Promise<LoadedMcpCard[]> {
  const probe = await probeMcpCards(context);
  const failure = probe.unreachable[0];
  if (probe.cards.length === 0 && failure !== undefined) throw failure.error;
  return probe.cards;
}

async function load(context: DocumentContext, url: string, source: McpCardSource): Promise<LoadedMcpCard> {
  const document = await fetchJsonDocument(context, url, ACCEPT_MCP_CARD);
  const card =
    document.json?.ok === true && typeof document.json.value === "object" && document.json.value !== null
      ? document.json.value
      : null;
  return { url, source, document, card };
}

export type McpCardShape = "v1" | "legacy" | "invalid";

export function cardShape(card: unknown): McpCardShape {
  if (McpCardV1Schema.safeParse(card).success) return "v1";
  return LegacyMcpCardSchema.safeParse(card).success ? "legacy" : "invalid";
}

/** Cards that were found, the canonical generation first: a v1 card beats a legacy one, the endpoint's own card beats aliases. */
export function foundCards(cards: readonly LoadedMcpCard[]): Array<LoadedMcpCard & { shape: McpCardShape }> {
  const order: Record<McpCardSource, number> = {
    "endpoint-server-card": 0,
    "ai-catalog": 1,
    "mcp-catalog": 1,
    "well-known-server-card": 2,
    "well-known-mcp-json": 3,
  };
  const shapeOrder: Record<McpCardShape, number> = { v1: 0, legacy: 1, invalid: 2 };
  return cards
    .filter((card) => card.document.state === "found" && card.card !== null)
    .map((card) => ({ ...card, shape: cardShape(card.card) }))
    .sort(
      (left, right) => shapeOrder[left.shape] - shapeOrder[right.shape] || order[left.source] - order[right.source],
    );
}
