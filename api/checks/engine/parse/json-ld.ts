import { jsonLdBlocks } from "./html.ts";
import { isRecord, parseJson } from "./json.ts";

export interface JsonLdReading {
  blocks: number;
  invalidBlocks: number;
  /** Every node object, `@graph` members and nested objects included. */
  nodes: Array<Record<string, unknown>>;
  usesSchemaOrg: boolean;
}

export function readJsonLd(html: string): JsonLdReading {
  const reading: JsonLdReading = { blocks: 0, invalidBlocks: 0, nodes: [], usesSchemaOrg: false };
  for (const block of jsonLdBlocks(html)) {
    reading.blocks += 1;
    const parsed = parseJson(block.trim());
    if (!parsed.ok) {
      reading.invalidBlocks += 1;
      continue;
    }
    collect(parsed.value, reading, 0);
  }
  return reading;
}

function collect(value: unknown, reading: JsonLdReading, depth: number): void {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    for (const item of value) collect(item, reading, depth + 1);
    return;
  }
  if (!isRecord(value)) return;
  const context = value["@context"];
  if (typeof context === "string" && /schema\.org/i.test(context)) reading.usesSchemaOrg = true;
  if (isRecord(context) && typeof context["@vocab"] === "string" && /schema\.org/i.test(context["@vocab"]))
    reading.usesSchemaOrg = true;
  reading.nodes.push(value);
  for (const [key, member] of Object.entries(value)) if (key !== "@context") collect(member, reading, depth + 1);
}

export function nodeTypes(node: Record<string, unknown>): string[] {
  const type = node["@type"];
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === "string") : [];
}

export function hasType(reading: JsonLdReading, ...types: string[]): boolean {
  return reading.nodes.some((node) => nodeTypes(node).some((type) => types.includes(type)));
}

/** Offers with a price and a currency (schema.org Offer / AggregateOffer). */
export function priceOffers(reading: JsonLdReading): Array<Record<string, unknown>> {
  return reading.nodes.filter((node) => {
    if (!nodeTypes(node).some((type) => type === "Offer" || type === "AggregateOffer")) return false;
    const price = node.price ?? node.lowPrice;
    return (typeof price === "number" || typeof price === "string") && typeof node.priceCurrency === "string";
  });
}
