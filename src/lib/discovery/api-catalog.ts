import { absolute, paths } from "../urls.ts";
import type { DiscoveryContext } from "./documents.ts";
import { OAUTH_PATHS, PROTECTED_RESOURCES, protectedResourceMetadataPath } from "./oauth.ts";

interface LinkTarget {
  href: string;
  type: string;
  title?: string;
}

/** Names of the JSON Schemas that describe the API's documents and bodies (RFC 9727 `describedby`). */
export interface CatalogExtras {
  openapi: boolean;
  schemaNames: readonly string[];
}

/**
 * `/.well-known/api-catalog`, an RFC 9264 linkset per RFC 9727: the API's anchor with its
 * description (`service-desc`), docs (`service-doc`), metadata documents (`service-meta`), status,
 * and the schemas; then the catalog's own entry listing the API as an `item`.
 */
export function apiCatalogDocument(ctx: DiscoveryContext, extras: CatalogExtras) {
  const site = (path: string) => absolute(ctx.siteUrl, path);
  const apiAnchor: Record<string, string | LinkTarget[]> = {
    anchor: site("/api/v1"),
  };
  if (extras.openapi)
    apiAnchor["service-desc"] = [{ href: site("/openapi.json"), type: "application/vnd.oai.openapi+json" }];
  apiAnchor["service-doc"] = [
    { href: absolute(ctx.docsUrl, paths.docsHome()), type: "text/html", title: "Documentation" },
    { href: site("/llms.txt"), type: "text/plain", title: "Documentation index for agents" },
  ];
  apiAnchor["service-meta"] = [
    { href: site("/capabilities.json"), type: "application/json", title: "Capabilities" },
    { href: site("/agents.json"), type: "application/json", title: "Agent entry points" },
    { href: site("/pricing.json"), type: "application/json", title: "Pricing" },
    { href: site("/terms.json"), type: "application/json", title: "Terms and policies" },
    { href: site("/roadmap.json"), type: "application/json", title: "Roadmap" },
    {
      href: site(OAUTH_PATHS.metadata),
      type: "application/json",
      title: "OAuth authorization server metadata (RFC 8414)",
    },
    ...PROTECTED_RESOURCES.map((name) => ({
      href: site(protectedResourceMetadataPath(name)),
      type: "application/json",
      title: `OAuth protected resource metadata (RFC 9728): ${name === "api" ? "the HTTP API" : "the agent MCP endpoint"}`,
    })),
  ];
  apiAnchor.status = [{ href: site("/.well-known/service-state.json"), type: "application/json" }];
  apiAnchor.describedby = extras.schemaNames.map((name) => ({
    href: site(paths.schema(name)),
    type: "application/schema+json",
  }));
  return {
    linkset: [apiAnchor, { anchor: site("/.well-known/api-catalog"), item: [{ href: site("/api/v1") }] }],
  };
}
