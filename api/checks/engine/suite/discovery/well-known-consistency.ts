import { type CheckContext, defineCheck, judge, notApplicable } from "../../check-types.ts";
import { loadSkillsIndex } from "../../documents/agent-docs.ts";
import { catalogEntries, loadAiCatalogs, loadApiCatalog } from "../../documents/catalogs.ts";
import { targetAnswers } from "../../documents/document.ts";
import { discoveryInventory } from "../../documents/inventory.ts";
import { foundCards, loadMcpCards } from "../../documents/mcp.ts";
import { findOpenApi } from "../../documents/openapi.ts";
import { deadFailures, sampleBlocker, sampleTargets } from "../../documents/sampling.ts";
import { loadHome, loadLlmsTxt } from "../../documents/site.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { type BaseUrlAgreement, baseUrlAgreement } from "../../openapi/catalog-agreement.ts";
import { openApiServers } from "../../openapi/servers.ts";
import { isRecord, parseJson } from "../../parse/json.ts";
import { isAgentLink, parseLinkHeader } from "../../parse/link-header.ts";
import { describeAnswer, isJsonMediaType, mediaTypeOf } from "../../parse/media-type.ts";
import { entryMediaType, MCP_CARD_MEDIA_TYPE } from "../../remote/ai-catalog.ts";
import { linksetTargets } from "../../remote/linkset.ts";
import { cardIdentity, McpCardV1Schema } from "../../remote/mcp-card.ts";

const MAX_ADVERTISED = 12;

/** Who advertises a URL, and whether it names an API endpoint rather than a document. */
interface Advertiser {
  by: string;
  /** An API base (RFC 9727 `item`): APIs rarely answer at their root, so only silence or a 5xx means it is gone. */
  endpoint: boolean;
}

/** URLs the discovery documents point at, with who points at them. */
async function advertisedUrls(context: CheckContext): Promise<Map<string, Advertiser>> {
  const urls = new Map<string, Advertiser>();
  const document = (by: string): Advertiser => ({ by, endpoint: false });
  const { response } = await loadHome(context);
  for (const link of parseLinkHeader(response.headers.link, response.url).filter(isAgentLink))
    urls.set(link.href, document("the Link header"));
  const { linkset } = await loadApiCatalog(context);
  for (const entry of linkset?.contexts ?? [])
    for (const relation of entry.relations)
      for (const target of relation.targets)
        urls.set(target.resolved, { by: "the api-catalog", endpoint: relation.rel === "item" });
  for (const entry of catalogEntries(await loadAiCatalogs(context)))
    if (entry.resolvedUrl !== null) urls.set(entry.resolvedUrl, document("the AI catalog"));
  const skills = await loadSkillsIndex(context);
  if (skills.json?.ok === true && isRecord(skills.json.value) && Array.isArray(skills.json.value.skills)) {
    for (const skill of skills.json.value.skills) {
      if (isRecord(skill) && typeof skill.url === "string" && URL.canParse(skill.url, skills.response.url))
        urls.set(new URL(skill.url, skills.response.url).href, document("the skills index"));
    }
  }
  return urls;
}

/** The MCP card's copies and the AI catalog's entry for it name one server and one version. */
async function mcpDisagreements(context: CheckContext): Promise<string[]> {
  const errors: string[] = [];
  const identities = foundCards(await loadMcpCards(context))
    .filter((card) => card.shape !== "invalid")
    .map((card) => cardIdentity(card.card));
  const versions = [...new Set(identities.map((identity) => identity.version))];
  if (versions.length > 1) errors.push(`the MCP card copies give different versions (${versions.join(", ")})`);
  if (new Set(identities.map((identity) => identity.name)).size > 1)
    errors.push("the MCP card copies give different names");
  const cardVersion = versions[0] ?? null;
  for (const entry of catalogEntries(await loadAiCatalogs(context)).filter(
    (item) => entryMediaType(item) === MCP_CARD_MEDIA_TYPE && item.version !== undefined,
  )) {
    if (cardVersion !== null && entry.version !== cardVersion)
      errors.push(`the AI catalog lists the MCP server as ${entry.version ?? ""}, its card says ${cardVersion}`);
  }
  return errors;
}

/** The OpenAPI servers against the APIs the api-catalog lists, as anchors or `item`s (RFC 9727 §4.1). */
async function baseUrlFindings(context: CheckContext): Promise<BaseUrlAgreement> {
  const { spec, document } = await findOpenApi(context);
  const { linkset } = await loadApiCatalog(context);
  const anchors = [
    ...(linkset?.contexts ?? []).flatMap((entry) => (entry.anchor === null ? [] : [entry.anchor])),
    ...(linkset === null ? [] : linksetTargets(linkset, "item").map((target) => target.resolved)),
  ].flatMap((url) => (URL.canParse(url) ? [new URL(url)] : []));
  if (spec === null || document === null || anchors.length === 0) return { errors: [], cautions: [] };
  return baseUrlAgreement(openApiServers(spec, document.response.url), spec, anchors);
}

/** JSON documents that say which service they belong to (`service: {name, version, url}`) must say the same thing. */
function serviceReferenceDisagreements(context: CheckContext, responses: readonly ScanResponse[]): string[] {
  const references = responses.flatMap((response) => {
    if (!isJsonMediaType(mediaTypeOf(response))) return [];
    const json = parseJson(response.text);
    const service = json.ok && isRecord(json.value) && isRecord(json.value.service) ? json.value.service : null;
    return service === null
      ? []
      : [{ path: new URL(response.url).pathname, version: service.version, url: service.url }];
  });
  const errors: string[] = [];
  const versions = new Set(
    references.map((reference) => reference.version).filter((version) => typeof version === "string"),
  );
  if (versions.size > 1) errors.push(`documents name different service versions (${[...versions].join(", ")})`);
  for (const reference of references) {
    if (
      typeof reference.url === "string" &&
      URL.canParse(reference.url) &&
      new URL(reference.url).origin !== context.target.origin
    ) {
      errors.push(`${reference.path} says the service lives at ${reference.url}`);
    }
  }
  return errors;
}

const normalise = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** Product names may differ in decoration ("X" and "X API"), not in substance. */
async function nameCautions(context: CheckContext): Promise<string[]> {
  const { aiCatalog, ard } = await loadAiCatalogs(context);
  const { spec } = await findOpenApi(context);
  const cards = foundCards(await loadMcpCards(context));
  const names = [
    ard.catalog?.host?.displayName ?? aiCatalog.catalog?.host?.displayName,
    (await loadLlmsTxt(context)).llms?.title ?? undefined,
    spec !== null && isRecord(spec.info) && typeof spec.info.title === "string" ? spec.info.title : undefined,
    cards.map((card) => McpCardV1Schema.safeParse(card.card)).find((parsed) => parsed.success)?.data?.title,
  ].filter((name): name is string => name !== undefined && name !== "");
  const base = names[0];
  if (base === undefined) return [];
  const strangers = names.filter(
    (name) => !normalise(name).includes(normalise(base)) && !normalise(base).includes(normalise(name)),
  );
  return strangers.length === 0
    ? []
    : [`names differ: "${base}" vs ${strangers.map((name) => `"${name}"`).join(", ")}`];
}

export const wellKnownConsistency = defineCheck({
  id: "wk.consistency",
  samples: true,
  requests: "all discovery documents together, and up to 12 advertised URLs",
  passes: "the same name, version and base URL everywhere; advertised documents resolve and advertised APIs answer",
  title: "Discovery documents agree with each other and point at things that exist",
  category: "api-hygiene",
  severity: "high",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Generate every discovery document from one source of truth so names, versions and base URLs agree, and never advertise a URL that does not answer.",
  prompt:
    "Generate our MCP server card, AI catalog, api-catalog, OpenAPI `servers`, llms.txt, skills index and capabilities documents from one configuration (name, version, base URLs) at build time, and add a CI step that fetches every URL they advertise and fails on anything but 200.",
  specUrls: [
    "https://www.rfc-editor.org/rfc/rfc9727#name-operational-considerations",
    "https://github.com/modelcontextprotocol/experimental-ext-server-card",
  ],
  async run(context) {
    const documents = await discoveryInventory(context);
    if (documents.length < 2)
      return notApplicable("fewer than two discovery documents, so there is nothing to compare");
    const advertised = [...(await advertisedUrls(context))];
    const sample = await sampleTargets(context, advertised, { url: ([url]) => url, limit: MAX_ADVERTISED });
    const baseUrls = await baseUrlFindings(context);
    const errors = [
      ...(await mcpDisagreements(context)),
      ...baseUrls.errors,
      ...serviceReferenceDisagreements(
        context,
        sample.answered.map((result) => result.response),
      ),
      ...sample.answered
        .filter((result) =>
          result.target[1].endpoint ? result.response.status >= 500 : !targetAnswers(context, result.response),
        )
        .map(
          (result) =>
            `${result.target[1].by} advertises ${new URL(result.url).pathname}, which answers ${describeAnswer(result.response)}`,
        ),
      ...deadFailures(sample).map((dead) => `an advertised URL does not answer: ${dead}`),
    ];
    // A sample the scan could not take leaves no verdict, unless what it did see already fails.
    const blocker = errors.length === 0 ? sampleBlocker(sample) : null;
    if (blocker !== null) throw blocker;
    const cautions = [...baseUrls.cautions, ...(await nameCautions(context))];
    const capped =
      advertised.length > sample.answered.length ? ` (checked ${sample.answered.length} of ${advertised.length})` : "";
    // A failure does not hide the cautions beside it (a scheme that differs, names that differ).
    return judge(
      { problems: errors, cautions },
      `${documents.length} documents agree on names, versions and base URLs; advertised URLs resolve${capped}`,
    );
  },
});
