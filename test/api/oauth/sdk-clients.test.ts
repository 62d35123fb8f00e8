import {
  IssuerMismatchError,
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
  UnauthorizedError as V2Unauthorized,
} from "@modelcontextprotocol/client";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClientDocumentSite, LOOPBACK_CA_FILE, startClientDocumentSite } from "../../helpers/client-documents.ts";
import { CALLBACK, type OAuthBed, PersonDrivenClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
let documents: ClientDocumentSite;
beforeAll(async () => {
  documents = await startClientDocumentSite();
  bed = await startOAuthBed({
    env: { OAUTH_CIMD_ALLOWED_TARGETS: documents.hostPort, OAUTH_CIMD_CA_FILE: LOOPBACK_CA_FILE },
  });
});
afterAll(async () => {
  await bed?.close();
  await documents?.close();
});

/** A client's own metadata document, as VS Code or Claude Code publish theirs. */
function publishClient(path: string, name: string): string {
  return documents.publish(path, {
    client_name: name,
    redirect_uris: [CALLBACK],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  });
}

/** v1: connect knowing only the URL; the 401 starts the sign-in; finish with the code; connect again. */
async function signInWithV1(client: PersonDrivenClient): Promise<Client> {
  const first = new Client({ name: "v1-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client });
  await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);
  await transport.finishAuth(client.code);
  const connected = new Client({ name: "v1-test", version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client }));
  return connected;
}

/** v2: the same, finishing with the whole callback so the client checks its `iss` (RFC 9207). */
async function signInWithV2(client: PersonDrivenClient): Promise<V2Client> {
  const first = new V2Client({ name: "v2-test", version: "1.0.0" });
  const transport = new V2Transport(new URL(bed.mcpAgent), { authProvider: client });
  await expect(first.connect(transport)).rejects.toThrow(V2Unauthorized);
  const callback = client.callback ?? new URLSearchParams();
  await transport.finishAuth(callback);
  const connected = new V2Client({ name: "v2-test", version: "1.0.0" });
  await connected.connect(new V2Transport(new URL(bed.mcpAgent), { authProvider: client }));
  return connected;
}

async function standingOf(mcp: Client | V2Client): Promise<Record<string, unknown>> {
  const result = await mcp.callTool({ name: "read_agent_standing", arguments: {} });
  expect(result.isError).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

describe("the official MCP SDK v1 client signs in to /mcp/agent knowing only its URL", () => {
  it("registers by DCR, passes the consent page as a person would, and calls a tool as the new registration", async () => {
    const client = new PersonDrivenClient(bed.base, { who: "new", fields: { ...NEW_AGENT, agent_name: "V1 Scout" } });
    const mcp = await signInWithV1(client);
    expect(await standingOf(mcp)).toMatchObject({ agent_name: "V1 Scout", scopes: ["waitlist:write", "survey:write"] });
    expect(client.information?.client_id).toMatch(/^dcr_/);
    expect(client.accessToken).toMatch(/^oat_[A-Za-z0-9_-]{49}$/);
    // It followed the 401 to the metadata: the authorization request names the resource and the challenge's scope.
    const asked = client.authorizationUrls[0];
    expect(asked?.searchParams.get("resource")).toBe(bed.mcpAgent);
    expect(asked?.searchParams.get("scope")).toBe("waitlist:write survey:write");
    expect(asked?.searchParams.get("code_challenge_method")).toBe("S256");
    const { tools } = await mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "answer_agent_survey",
        "create_monitor",
        "join_agent_waitlist",
        "list_monitors",
        "read_agent_standing",
        "read_monitor",
      ].sort(),
    );
    await mcp.close();
  });

  it("uses a client ID metadata document served over https, and the document's URL is the client_id", async () => {
    const url = publishClient("/v1/client.json", "CIMD v1 client");
    const client = new PersonDrivenClient(
      bed.base,
      { who: "new", fields: { ...NEW_AGENT, agent_name: "V1 CIMD" } },
      url,
    );
    const mcp = await signInWithV1(client);
    expect(await standingOf(mcp)).toMatchObject({ agent_name: "V1 CIMD" });
    expect(client.authorizationUrls[0]?.searchParams.get("client_id")).toBe(url);
    expect(documents.fetches("/v1/client.json")).toBeGreaterThanOrEqual(1);
    await mcp.close();
  });
});

describe("the official MCP SDK v2 client (@modelcontextprotocol/client) signs in to /mcp/agent", () => {
  it("registers by DCR, checks the iss of the authorization response, and calls a tool", async () => {
    const client = new PersonDrivenClient(bed.base, { who: "new", fields: { ...NEW_AGENT, agent_name: "V2 Scout" } });
    const mcp = await signInWithV2(client);
    expect(client.callback?.get("iss")).toBe(bed.base);
    expect(await standingOf(mcp)).toMatchObject({ agent_name: "V2 Scout" });
    await mcp.close();
  });

  it("uses a client ID metadata document, and refuses a callback whose iss is not the issuer", async () => {
    const url = publishClient("/v2/client.json", "CIMD v2 client");
    const client = new PersonDrivenClient(
      bed.base,
      { who: "new", fields: { ...NEW_AGENT, agent_name: "V2 CIMD" } },
      url,
    );
    const first = new V2Client({ name: "v2-test", version: "1.0.0" });
    const transport = new V2Transport(new URL(bed.mcpAgent), { authProvider: client });
    await expect(first.connect(transport)).rejects.toThrow(V2Unauthorized);
    // The check is live: the same callback with another issuer is refused before any token request.
    const forged = new URLSearchParams(client.callback ?? undefined);
    forged.set("iss", "https://attacker.example");
    await expect(transport.finishAuth(forged)).rejects.toThrow(IssuerMismatchError);
    await transport.finishAuth(client.callback ?? new URLSearchParams());
    const mcp = new V2Client({ name: "v2-test", version: "1.0.0" });
    await mcp.connect(new V2Transport(new URL(bed.mcpAgent), { authProvider: client }));
    expect(await standingOf(mcp)).toMatchObject({ agent_name: "V2 CIMD" });
    expect(client.authorizationUrls[0]?.searchParams.get("client_id")).toBe(url);
    await mcp.close();
  });
});
