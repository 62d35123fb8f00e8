import { entryMediaType, MCP_CARD_MEDIA_TYPE } from "../remote/ai-catalog.ts";
import { cardEndpoints, LegacyMcpCardSchema, McpCardV1Schema } from "../remote/mcp-card.ts";
import { catalogEntries, loadAiCatalogs } from "./catalogs.ts";
import { type DocumentContext, fetchJsonDocument, type JsonDocument, pathUrl } from "./document.ts";

export const ACCEPT_MCP_CARD = `${MCP_CARD_MEDIA_TYPE}, application/json;q=0.9`;

/** Where a card was looked for: its generation decides what "outdated" means. */
export type McpCardSource = "ai-catalog" | "well-known-server-card" | "well-known-mcp-json" | "endpoint-server-card";

export interface LoadedMcpCard {
  url: string;
  source: McpCardSource;
  document: JsonDocument;
  /** The parsed body when the document was found and is a JSON object. */
  card: unknown;
}

const MAX_CATALOG_CARDS = 2;

/**
 * Every generation of MCP server card (landscape §3.3): AI-catalog entries, SEP-2127's
 * `/.well-known/mcp/server-card.json`, SEP-1649's `/.well-known/mcp.json`, and the extension's
 * `<streamable-http-url>/server-card` for each endpoint a found card names.
 */
export async function loadMcpCards(context: DocumentContext): Promise<LoadedMcpCard[]> {
  const catalogs = await loadAiCatalogs(context);
  const planned: Array<{ url: string; source: McpCardSource }> = catalogEntries(catalogs)
    .filter((entry) => entryMediaType(entry) === MCP_CARD_MEDIA_TYPE && entry.resolvedUrl !== null)
    .slice(0, MAX_CATALOG_CARDS)
    .map((entry) => ({ url: entry.resolvedUrl ?? "", source: "ai-catalog" }));
  planned.push({ url: pathUrl(context, "/.well-known/mcp/server-card.json"), source: "well-known-server-card" });
  planned.push({ url: pathUrl(context, "/.well-known/mcp.json"), source: "well-known-mcp-json" });
  const loaded = await Promise.all(planned.map((plan) => load(context, plan.url, plan.source)));
  const known = new Set(loaded.map((card) => card.url));
  const endpointCards = loaded
    .flatMap((card) => cardEndpoints(card.card, card.document.response.url))
    .map((endpoint) => `${endpoint.replace(/\/+$/, "")}/server-card`)
    .filter((url) => !known.has(url));
  const first = endpointCards[0];
  if (first !== undefined) loaded.push(await load(context, first, "endpoint-server-card"));
  return loaded;
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
