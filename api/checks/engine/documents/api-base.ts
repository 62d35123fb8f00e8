import { isRecord } from "../parse/json.ts";
import { linksetTargets } from "../remote/linkset.ts";
import { loadApiCatalog } from "./catalogs.ts";
import { type DocumentContext, pathUrl } from "./document.ts";
import { findOpenApi } from "./openapi.ts";

/**
 * Where the site's API lives: the api-catalog's `item` (RFC 9727 §3.1 names each API with it), else an anchor that
 * carries a service-desc (§4.1), else the OpenAPI description's first absolute server, else `<origin>/api`.
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
  const { spec } = await findOpenApi(context);
  const servers = spec !== null && Array.isArray(spec.servers) ? spec.servers : [];
  const first = servers.find(
    (server): server is Record<string, unknown> =>
      isRecord(server) && typeof server.url === "string" && URL.canParse(server.url),
  );
  if (first !== undefined) return { url: String(first.url).replace(/\/+$/, ""), source: "the OpenAPI servers" };
  return { url: pathUrl(context, "/api"), source: "the conventional /api" };
}
