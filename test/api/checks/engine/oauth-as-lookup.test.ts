import { describe, expect, it } from "vitest";
import { authorizationServer } from "../../../../api/checks/engine/suite/capabilities/auth.ts";
import { json, page } from "../../../fixtures/sites/static-site.ts";
import { checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

/** RFC 8414 §3's example metadata, for an issuer with a path (a tenant), as OpenID Connect discovery serves it. */
const metadata = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks.json`,
  code_challenge_methods_supported: ["S256"],
});

describe("oauth.as looks up what its catalogue row says, in that order", () => {
  it("asks RFC 8414's path-inserted URL first, then OpenID discovery under the issuer, for the issuer the resource names", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Pets API</h1>"),
        "/.well-known/oauth-protected-resource": (origin) =>
          json({ resource: origin, authorization_servers: [`${origin}/tenant`] }),
        "/tenant/.well-known/openid-configuration": (origin) => json(metadata(`${origin}/tenant`)),
        "/tenant/jwks.json": json({ keys: [] }),
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "oauth.as")).toBe("pass");
    expect(messageOf(result, "oauth.as")).toBe(`issuer ${result.target.origin}/tenant with S256 PKCE`);
    const asked = (result.details.find((detail) => detail.id === "oauth.as")?.evidence ?? []).map(
      (entry) => new URL(entry.request.url).pathname,
    );
    // The protected-resource metadata is read first, for the issuer; then the two metadata URLs, in this order.
    expect(asked.slice(0, 3)).toEqual([
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server/tenant",
      "/tenant/.well-known/openid-configuration",
    ]);
    const row = authorizationServer.requests;
    expect(row.indexOf("/.well-known/oauth-authorization-server<issuer path>")).toBeGreaterThan(-1);
    expect(row.indexOf("/.well-known/oauth-authorization-server<issuer path>")).toBeLessThan(
      row.indexOf("<issuer>/.well-known/openid-configuration"),
    );
    expect(row).toContain("the first of `authorization_servers`, else the site's origin");
  });
});
