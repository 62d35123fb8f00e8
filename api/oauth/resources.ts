import { type Configuration, errors } from "oidc-provider";
import type { ProtectedResource } from "../../src/lib/discovery/oauth.ts";
import { AGENT_SCOPES } from "../../src/lib/registry.ts";

/** The protected resources tokens are issued for (src/lib/discovery/oauth.ts), by name. */
export type ResourceServers = readonly ProtectedResource[];

/** Every spelling of a resource a client may send: its canonical URL, and the origin with its slash. */
function spellings(resource: ProtectedResource): string[] {
  return new URL(resource.url).pathname === "/" ? [resource.url, `${resource.url}/`] : [resource.url];
}

/**
 * RFC 8707 as MCP requires it: `resource` is required on the authorization request (none is
 * defaulted), names one of our resources exactly, and becomes the token's audience in its canonical
 * form, the URL the resource checks (a token for the MCP endpoint is refused at the API and the other
 * way round). A token request may name the granted resource again or leave it out.
 */
export function resourceIndicators(
  resources: ResourceServers,
): NonNullable<Configuration["features"]>["resourceIndicators"] {
  const byIndicator = new Map(
    resources.flatMap((resource) => spellings(resource).map((url) => [url, resource] as const)),
  );
  const known = resources.map((resource) => resource.url).join(", ");
  return {
    enabled: true,
    defaultResource: (_ctx, _client, oneOf) => {
      if (oneOf) return oneOf;
      throw new errors.InvalidTarget(`the resource parameter is required (RFC 8707); this server protects ${known}`);
    },
    getResourceServerInfo: (_ctx, indicator) => {
      const resource = byIndicator.get(indicator);
      if (!resource)
        throw new errors.InvalidTarget(`${indicator} is not a resource of this server; it protects ${known}`);
      return { scope: AGENT_SCOPES.join(" "), audience: resource.url, accessTokenFormat: "opaque" };
    },
    useGrantedResource: () => true,
  };
}
