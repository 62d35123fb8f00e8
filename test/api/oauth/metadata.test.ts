import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authorizationServerMetadata } from "../../../src/lib/discovery/oauth.ts";
import { type OAuthBed, startOAuthBed } from "../../helpers/oauth.ts";

let bed: OAuthBed;
beforeAll(async () => {
  bed = await startOAuthBed();
});
afterAll(() => bed?.close());

async function json(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${bed.base}${path}`, { headers });
  expect(response.status, path).toBe(200);
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/** What oidc-provider itself would publish for this configuration (its own discovery route, served directly). */
async function libraryMetadata(): Promise<Record<string, unknown>> {
  const server = createServer(bed.t.services.oauth.provider.callback());
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`, {
      // It writes its endpoints from the request's host: as if reached at the issuer's.
      headers: {
        "x-forwarded-proto": new URL(bed.base).protocol.replace(":", ""),
        "x-forwarded-host": new URL(bed.base).host,
      },
    });
    return (await response.json()) as Record<string, unknown>;
  } finally {
    server.close();
  }
}

describe("the authorization server metadata (RFC 8414)", () => {
  it("is served at the issuer's well-known address, with CORS, and says every field the MCP clients look for", async () => {
    const { response, body } = await json("/.well-known/oauth-authorization-server", {
      origin: "http://localhost:6274",
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(body).toEqual(authorizationServerMetadata(bed.base, bed.t.config.docsUrl));
    expect(body).toMatchObject({
      issuer: bed.base,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      token_endpoint_auth_methods_supported: expect.arrayContaining(["none"]),
    });
  });

  it("says what the library itself does, field for field (bar openid, which the consent page never grants)", async () => {
    const ours = authorizationServerMetadata(bed.base, bed.t.config.docsUrl);
    const library = await libraryMetadata();
    for (const [field, value] of Object.entries(ours)) {
      if (field === "service_documentation") continue;
      const theirs =
        field === "scopes_supported"
          ? (library[field] as string[]).filter((scope) => scope !== "openid")
          : library[field];
      expect(theirs, field).toEqual(value);
    }
  });

  it("answers a preflight from a browser client", async () => {
    const response = await fetch(`${bed.base}/.well-known/oauth-authorization-server`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:6274", "access-control-request-method": "GET" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});

describe("the protected resource metadata (RFC 9728)", () => {
  it("of /mcp/agent names it exactly, its authorization server, and the basic scopes", async () => {
    const { response, body } = await json("/.well-known/oauth-protected-resource/mcp/agent");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(body).toMatchObject({
      resource: bed.mcpAgent,
      authorization_servers: [bed.base],
      scopes_supported: ["waitlist:write", "survey:write"],
      bearer_methods_supported: ["header"],
    });
  });

  it("of the HTTP API names the origin, the resource its tokens are for", async () => {
    const { body } = await json("/.well-known/oauth-protected-resource");
    expect(body).toMatchObject({ resource: bed.base, authorization_servers: [bed.base] });
  });

  it("answers a preflight on the token endpoint too", async () => {
    const response = await fetch(`${bed.base}/oauth/token`, {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:6274",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
  });
});
