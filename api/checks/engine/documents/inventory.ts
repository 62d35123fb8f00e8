import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { parseJson } from "../parse/json.ts";
import { bodyLooksLikeHtml } from "../parse/media-type.ts";
import {
  loadA2aCard,
  loadAgentsJson,
  loadPricing,
  loadProtectedResourceMetadata,
  loadSkillsIndex,
  loadWebBotAuthDirectory,
  WEB_BOT_AUTH_MEDIA_TYPE,
} from "./agent-docs.ts";
import { loadAiCatalogs, loadApiCatalog } from "./catalogs.ts";
import { type DocumentContext, type FetchedDocument, isFallbackBody } from "./document.ts";
import { loadMcpCards } from "./mcp.ts";
import { findOpenApi } from "./openapi.ts";
import { loadLlmsFull, loadLlmsTxt, loadRobots, loadSecurityTxt, loadSitemap } from "./site.ts";

/** A discovery document the scan found, with the media types it should be served as. */
export interface DiscoveryDocument {
  name: string;
  document: FetchedDocument;
  /** JSON meant for any client, which browsers can only read with CORS. */
  publicJson: boolean;
  /** Exactly right. */
  types: readonly string[];
  /** Tolerated by clients though a more specific type exists (warn). */
  tolerated: readonly string[];
}

const JSON_TYPES = ["application/json"];

/** Every discovery document the site serves (whatever its Content-Type), HTML fallbacks left out. */
export async function discoveryInventory(context: DocumentContext): Promise<DiscoveryDocument[]> {
  const entries: DiscoveryDocument[] = [];
  const add = (
    name: string,
    document: FetchedDocument | null,
    types: readonly string[],
    tolerated: readonly string[] = [],
    publicJson = false,
  ): void => {
    if (document === null || document.state === "missing" || document.state === "broken") return;
    // An HTML page or catch-all body standing in for the document is not a document: the check that owns it says so.
    if (bodyLooksLikeHtml(document.response.text) || isFallbackBody(context, document.response)) return;
    entries.push({ name, document, types, tolerated, publicJson });
  };
  const guard = async (read: () => Promise<void>): Promise<void> => {
    try {
      await read();
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
    }
  };
  await Promise.all([
    guard(async () => {
      const { document, robots } = await loadRobots(context);
      add("robots.txt", document, ["text/plain"]);
      add(
        "sitemap",
        (await loadSitemap(context, robots)).document,
        ["application/xml", "text/xml"],
        ["application/gzip", "application/x-gzip"],
      );
    }),
    guard(async () => add("llms.txt", (await loadLlmsTxt(context)).document, ["text/plain", "text/markdown"])),
    guard(async () => add("llms-full.txt", (await loadLlmsFull(context)).document, ["text/plain", "text/markdown"])),
    guard(async () => add("security.txt", (await loadSecurityTxt(context)).document, ["text/plain"])),
    guard(async () =>
      add("api-catalog", (await loadApiCatalog(context)).document, ["application/linkset+json"], JSON_TYPES, true),
    ),
    guard(async () => {
      const { aiCatalog, ard } = await loadAiCatalogs(context);
      add("ai-catalog.json", aiCatalog.document, ["application/ai-catalog+json", ...JSON_TYPES], [], true);
      add("ard.json", ard.document, ["application/ai-catalog+json", ...JSON_TYPES], [], true);
    }),
    guard(async () => {
      for (const card of await loadMcpCards(context))
        add(
          `MCP card ${new URL(card.url).pathname}`,
          card.document,
          ["application/mcp-server-card+json", ...JSON_TYPES],
          [],
          true,
        );
    }),
    guard(async () => add("skills index", await loadSkillsIndex(context), JSON_TYPES, [], true)),
    guard(async () => {
      const { document } = await findOpenApi(context);
      // The advice follows the document served: a YAML description is not told to take a JSON media type.
      const yaml = document !== null && !parseJson(document.response.text).ok;
      add(
        "OpenAPI",
        document,
        yaml
          ? ["application/openapi+yaml", "application/vnd.oai.openapi"]
          : ["application/openapi+json", "application/vnd.oai.openapi+json"],
        yaml ? ["application/yaml", "text/yaml"] : JSON_TYPES,
        true,
      );
    }),
    guard(async () => add("agent card", await loadA2aCard(context), JSON_TYPES, [], true)),
    guard(async () => add("agents.json", await loadAgentsJson(context), JSON_TYPES, [], true)),
    guard(async () =>
      add("protected-resource metadata", await loadProtectedResourceMetadata(context), JSON_TYPES, [], true),
    ),
    guard(async () =>
      add("key directory", await loadWebBotAuthDirectory(context), [WEB_BOT_AUTH_MEDIA_TYPE], JSON_TYPES, true),
    ),
    guard(async () => add("pricing.json", await loadPricing(context), JSON_TYPES, [], true)),
  ]);
  return entries.sort((left, right) => left.name.localeCompare(right.name));
}
