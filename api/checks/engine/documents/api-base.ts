import { baseOf, openApiServers } from "../openapi/servers.ts";
import { linksetTargets } from "../remote/linkset.ts";
import { loadApiCatalog } from "./catalogs.ts";
import { type DocumentContext, pathUrl } from "./document.ts";
import { findOpenApi } from "./openapi.ts";

/**
 * Where the site's API lives: the api-catalog's `item` (RFC 9727 §3.1 names each API with it), else an anchor that
 * carries a service-desc (§4.1), else the OpenAPI description's first declared server (a relative one resolved against
 * the document's URL, openapi/servers.ts), else `<origin>/api`.
 */
export async function findApiBase(context: DocumentContext): Promise<{ url: string; source: string }> {
  const { linkset, document } = await loadApiCatalog(context);
  if (linkset !== null) {
    const item = linksetTargets(linkset, "item").find((target) => URL.canParse(target.resolved))?.resolved;
    if (item !== undefined) return { url: item.replace(/\/+$/, ""), source: "the api-catalog item" };
    const anchored = linksetTargets(linkset, "service-desc").find(
      (target) => target.anchor !== null && target.anchor !== document.response.url,
    )?.anchor;
    if (anchored !== undefined && anchored !== null && URL.canParse(anchored))
      return { url: anchored.replace(/\/+$/, ""), source: "the api-catalog anchor" };
  }
  const openApi = await findOpenApi(context);
  const first =
    openApi.spec === null || openApi.document === null
      ? undefined
      : openApiServers(openApi.spec, openApi.document.response.url).find((server) => server.declared);
  if (first !== undefined) return { url: baseOf(first.url), source: "the OpenAPI servers" };
  return { url: pathUrl(context, "/api"), source: "the conventional /api" };
}
