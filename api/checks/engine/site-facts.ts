import { type Profile, ProfileSchema } from "../../../src/schemas/report.ts";
import {
  loadA2aCard,
  loadAgentsJson,
  loadCommerceManifests,
  loadPricing,
  loadProtectedResourceMetadata,
  loadSkillsIndex,
  loadWebBotAuthDirectory,
} from "./documents/agent-docs.ts";
import { loadAiCatalogs, loadApiCatalog } from "./documents/catalogs.ts";
import type { DocumentContext, JsonDocument } from "./documents/document.ts";
import { loadMcpCards } from "./documents/mcp.ts";
import { findOpenApi } from "./documents/openapi.ts";
import { loadHome, loadLlmsFull, loadLlmsTxt } from "./documents/site.ts";
import { ScanFetchError } from "./fetch/scan-fetch-error.ts";
import { htmlLinks } from "./parse/html.ts";
import { isRecord } from "./parse/json.ts";
import { priceOffers, readJsonLd } from "./parse/json-ld.ts";
import { parseLinkHeader } from "./parse/link-header.ts";
import { isMarkdownMediaType } from "./parse/media-type.ts";
import { documentationEvidence } from "./profiles/docs-evidence.ts";

/** What the scan found before the checks ran; it decides the inferred profiles. */
export interface SiteSignals {
  htmlHome: boolean;
  /** Why the site is a documentation site (see profiles/docs-evidence.ts), or null. */
  documentation: string | null;
  llmsTxt: boolean;
  llmsFull: boolean;
  markdownAlternate: boolean;
  openApi: boolean;
  apiCatalog: boolean;
  agentsJson: boolean;
  protectedResource: boolean;
  mcpCard: boolean;
  a2aCard: boolean;
  skillsIndex: boolean;
  aiCatalog: boolean;
  webBotAuth: boolean;
  pricing: boolean;
  commerceProtocol: boolean;
}

export interface SiteFacts {
  signals: SiteSignals;
  /** For each inferred profile, the evidence of need it was inferred from. */
  reasons: ProfileReasons;
  inferred: Profile[];
  applied: Profile[];
  overridden: boolean;
}

/**
 * A signal the scanner could not read counts as absent: the check that needs the same document reports the error
 * itself (as `error`), so nothing is lost by not failing the whole scan here.
 */
async function safely(read: () => Promise<boolean>): Promise<boolean> {
  try {
    return await read();
  } catch {
    return false;
  }
}

const jsonFound = (document: JsonDocument): boolean =>
  document.state === "found" && document.json?.ok === true && isRecord(document.json.value);

export async function gatherSignals(context: DocumentContext): Promise<SiteSignals> {
  const home = safely(async () => (await loadHome(context)).state === "found");
  const jsonLdOffers = safely(async () => {
    const document = await loadHome(context);
    return document.state === "found" && priceOffers(readJsonLd(document.response.text)).length > 0;
  });
  const markdownAlternate = safely(async () => {
    const { response } = await loadHome(context);
    const headerLinks = parseLinkHeader(response.headers.link, response.url);
    const pageLinks = htmlLinks(response.text, response.url);
    return [...headerLinks, ...pageLinks].some(
      (link) => link.rels.includes("alternate") && isMarkdownMediaType(link.type ?? ""),
    );
  });
  const documentation = documentationEvidence(context).catch((error: unknown) => {
    if (error instanceof ScanFetchError) return null;
    throw error;
  });
  const [
    htmlHome,
    docs,
    offers,
    alternate,
    llmsTxt,
    llmsFull,
    openApi,
    apiCatalog,
    agentsJson,
    protectedResource,
    mcpCard,
    a2aCard,
    skillsIndex,
    aiCatalog,
    webBotAuth,
    pricing,
    commerceProtocol,
  ] = await Promise.all([
    home,
    documentation,
    jsonLdOffers,
    markdownAlternate,
    safely(async () => (await loadLlmsTxt(context)).llms !== null),
    safely(async () => (await loadLlmsFull(context)).llms !== null),
    safely(async () => (await findOpenApi(context)).document !== null),
    safely(async () => ((await loadApiCatalog(context)).linkset?.contexts.length ?? 0) > 0),
    safely(async () => jsonFound(await loadAgentsJson(context))),
    safely(async () => jsonFound(await loadProtectedResourceMetadata(context))),
    safely(async () =>
      (await loadMcpCards(context)).some((card) => card.card !== null && card.document.state === "found"),
    ),
    safely(async () => jsonFound(await loadA2aCard(context))),
    safely(async () => jsonFound(await loadSkillsIndex(context))),
    safely(async () => {
      const { aiCatalog, ard } = await loadAiCatalogs(context);
      return aiCatalog.catalog !== null || ard.catalog !== null;
    }),
    safely(async () => jsonFound(await loadWebBotAuthDirectory(context))),
    safely(async () => jsonFound(await loadPricing(context))),
    safely(async () => {
      const { ucp, acp } = await loadCommerceManifests(context);
      return jsonFound(ucp) || jsonFound(acp);
    }),
  ]);
  return {
    htmlHome,
    documentation: docs,
    llmsTxt,
    llmsFull,
    markdownAlternate: alternate,
    openApi,
    apiCatalog,
    agentsJson,
    protectedResource,
    mcpCard,
    a2aCard,
    skillsIndex,
    aiCatalog,
    webBotAuth,
    pricing: pricing || offers,
    commerceProtocol,
  };
}

export type ProfileReasons = Partial<Record<Profile, string>>;

/**
 * The evidence of need behind each profile (DESIGN §8): an HTML homepage, a documentation site, an API, an agent
 * surface, a store. Never llms.txt or Markdown alone, which every site may publish: a content site is never judged
 * on documentation, MCP or OAuth it has no use for.
 */
export function profileReasons(signals: SiteSignals): ProfileReasons {
  const first = (pairs: ReadonlyArray<[boolean, string]>): string | undefined => pairs.find(([found]) => found)?.[1];
  const reasons: ProfileReasons = {
    content: first([[signals.htmlHome, "the homepage is an HTML page"]]),
    docs: signals.documentation ?? undefined,
    api: first([
      [signals.openApi, "an OpenAPI description"],
      [signals.apiCatalog, "an api-catalog"],
      [signals.protectedResource, "OAuth protected-resource metadata"],
      [signals.agentsJson, "an agents.json"],
    ]),
    agent: first([
      [signals.mcpCard, "an MCP server card"],
      [signals.a2aCard, "an A2A agent card"],
      [signals.aiCatalog, "an AI catalog"],
      [signals.skillsIndex, "an agent-skills index"],
      [signals.webBotAuth, "a Web Bot Auth key directory"],
    ]),
    commerce: first([
      [signals.commerceProtocol, "a UCP or ACP manifest"],
      [signals.pricing, "prices (JSON-LD offers or /pricing.json)"],
    ]),
  };
  return Object.fromEntries(Object.entries(reasons).filter(([, reason]) => reason !== undefined));
}

/** Profiles in their canonical order, each inferred from evidence of need. */
export function inferProfiles(signals: SiteSignals): Profile[] {
  const reasons = profileReasons(signals);
  return ProfileSchema.options.filter((profile) => reasons[profile] !== undefined);
}

/** The site offers surfaces meant for agents, so blocking agents in robots.txt contradicts it. */
export function advertisesAgentSurfaces(signals: SiteSignals): boolean {
  return (
    signals.mcpCard ||
    signals.a2aCard ||
    signals.skillsIndex ||
    signals.apiCatalog ||
    signals.openApi ||
    signals.aiCatalog
  );
}
