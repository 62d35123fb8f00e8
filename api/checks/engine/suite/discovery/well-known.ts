import { type CheckContext, defineCheck, isSecureOrLocal, judge, notApplicable } from "../../check-types.ts";
import { loadSkillsIndex } from "../../documents/agent-docs.ts";
import { loadApiCatalog } from "../../documents/catalogs.ts";
import { type DiscoveryDocument, discoveryInventory } from "../../documents/inventory.ts";
import { foundCards, loadMcpCards } from "../../documents/mcp.ts";
import { mediaTypeOf } from "../../parse/media-type.ts";

const MAX_REVALIDATIONS = 3;

/** Revalidate the documents agents poll most, starting with the card mcp.card revalidates anyway (a shared request). */
async function revalidationOrder(context: CheckContext): Promise<string[]> {
  const card = foundCards(await loadMcpCards(context))[0];
  const catalog = (await loadApiCatalog(context)).document.response.requestUrl;
  const skills = (await loadSkillsIndex(context)).response.requestUrl;
  return [...(card === undefined ? [] : [card.document.response.requestUrl]), catalog, skills];
}

/** Every type the check accepts for a document, best first: the advice of a failing type is what would pass. */
function accepted(entry: DiscoveryDocument): string {
  const types = [...entry.types, ...entry.tolerated];
  return types.length < 2 ? (types[0] ?? "") : `${types.slice(0, -1).join(", ")} or ${types.at(-1)}`;
}

export const wellKnownDelivery = defineCheck({
  id: "wk.delivery",
  requests: "every discovery document found",
  passes:
    "correct content type, `Access-Control-Allow-Origin: *` on public JSON, `Cache-Control`, `ETag` with `304`, HTTPS, at most 1 MB",
  title: "Discovery documents are served with the right type, CORS and caching",
  category: "api-hygiene",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Serve each discovery document with its registered media type, over HTTPS, with Cache-Control; public JSON also with Access-Control-Allow-Origin: * and an ETag honoured by If-None-Match (304).",
  prompt:
    "For every discovery document we publish (robots.txt, llms.txt, sitemap, security.txt, api-catalog, ai-catalog/ard, MCP cards, skills index, OpenAPI): set the exact Content-Type (e.g. application/linkset+json for the api-catalog, text/plain for llms.txt), Cache-Control: public, max-age=3600, and for JSON documents Access-Control-Allow-Origin: * plus a strong ETag that answers If-None-Match with 304.",
  specUrls: [
    "https://github.com/modelcontextprotocol/experimental-ext-server-card",
    "https://www.rfc-editor.org/rfc/rfc9111",
    "https://fetch.spec.whatwg.org/#http-cors-protocol",
  ],
  async run(context) {
    const documents = await discoveryInventory(context);
    if (documents.length === 0) return notApplicable("no discovery documents were found");
    const errors: string[] = [];
    const noCors: string[] = [];
    const noCache: string[] = [];
    const noEtag: string[] = [];
    const tolerated: string[] = [];
    const revalidate: DiscoveryDocument[] = [];
    for (const entry of documents) {
      const { response } = entry.document;
      const type = mediaTypeOf(response);
      if (entry.tolerated.includes(type))
        tolerated.push(`${entry.name} is ${type} rather than ${entry.types[0] ?? ""}`);
      else if (!entry.types.includes(type))
        errors.push(`${entry.name} is served as ${type || "no Content-Type"}, not ${accepted(entry)}`);
      if (!isSecureOrLocal(context, new URL(response.url))) errors.push(`${entry.name} is not served over HTTPS`);
      if (response.headers["cache-control"] === undefined) noCache.push(entry.name);
      if (!entry.publicJson) continue;
      if (response.headers["access-control-allow-origin"] !== "*") noCors.push(entry.name);
      if (response.headers.etag === undefined) noEtag.push(entry.name);
      else revalidate.push(entry);
    }
    const notRevalidated: string[] = [];
    const preferred = await revalidationOrder(context);
    const rank = (entry: DiscoveryDocument): number => {
      const index = preferred.indexOf(entry.document.response.requestUrl);
      return index === -1 ? preferred.length : index;
    };
    await Promise.all(
      [...revalidate]
        .sort((left, right) => rank(left) - rank(right))
        .slice(0, MAX_REVALIDATIONS)
        .map(async (entry) => {
          const { response } = entry.document;
          const again = await context.trail.get(response.requestUrl, {
            accept: response.requestHeaders.accept ?? "*/*",
            "if-none-match": response.headers.etag ?? "",
          });
          if (again.status !== 304) notRevalidated.push(`${entry.name} (${again.status})`);
        }),
    );
    const cautions = [
      ...tolerated,
      ...(noCors.length > 0 ? [`no Access-Control-Allow-Origin: * on ${noCors.join(", ")}`] : []),
      ...(noCache.length > 0 ? [`no Cache-Control on ${noCache.join(", ")}`] : []),
      ...(noEtag.length > 0 ? [`no ETag on ${noEtag.join(", ")}`] : []),
      ...(notRevalidated.length > 0 ? [`If-None-Match is not answered with 304 by ${notRevalidated.join(", ")}`] : []),
    ];
    // The passing phrase claims only what was seen: CORS and ETags on public JSON when there is some, and 304s on
    // the few documents revalidated, not on every one.
    const revalidated = Math.min(revalidate.length, MAX_REVALIDATIONS);
    const json =
      revalidate.length === 0
        ? ""
        : `; ${revalidate.length} JSON document(s) with CORS and an ETag (${revalidated} revalidated: 304)`;
    // A wrong type fails without hiding the caching and CORS gaps beside it.
    return judge(
      { problems: errors, cautions },
      `${documents.length} discovery documents with correct types and caching${json}`,
    );
  },
});

export const wellKnownChecks = [wellKnownDelivery];
