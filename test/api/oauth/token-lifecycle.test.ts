import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTrust } from "../../../api/agents/sql.ts";
import { hashToken } from "../../../api/platform/auth/agent-token.ts";
import { STANDING_FRESH_MS } from "../../../api/platform/auth/standing-epoch.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { mcpCall, type OAuthBed, PersonDrivenClient, postForm, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
beforeAll(async () => {
  bed = await startOAuthBed();
});
afterAll(() => bed?.close());

/** Signs in with the v1 SDK client as a new registration; answers the connected client and its provider. */
async function signedIn(name: string): Promise<{ mcp: Client; client: PersonDrivenClient }> {
  const client = new PersonDrivenClient(bed.base, { who: "new", fields: { ...NEW_AGENT, agent_name: name } });
  const transport = new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client });
  await expect(new Client({ name: "lifecycle", version: "1" }).connect(transport)).rejects.toThrow(UnauthorizedError);
  await transport.finishAuth(client.code);
  const mcp = new Client({ name: "lifecycle", version: "1" });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client }));
  return { mcp, client };
}

const token = (client: PersonDrivenClient, name: "access_token" | "refresh_token") => String(client.stored?.[name]);
const clientId = (client: PersonDrivenClient) => String(client.information?.client_id);

async function refresh(client: PersonDrivenClient, refreshToken: string) {
  return postForm(`${bed.base}/oauth/token`, {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: clientId(client),
    resource: bed.mcpAgent,
  });
}

async function challengeOf(accessToken: string): Promise<{ status: number; challenge: string | null }> {
  const response = await mcpCall(bed.mcpAgent, accessToken);
  await response.body?.cancel();
  return { status: response.status, challenge: response.headers.get("www-authenticate") };
}

describe("an OAuth grant over its life", () => {
  it("is renewed by the SDK with its refresh token once the access token has expired, and the refresh token rotates", async () => {
    const { mcp, client } = await signedIn("Refreshed");
    const firstAccess = token(client, "access_token");
    const firstRefresh = token(client, "refresh_token");
    expect(firstRefresh).toMatch(/^ort_/);
    // An hour passes for this access token (its row says when it ends; the refresh token's does not move).
    await bed.t.services.database.client.execute({
      sql: "UPDATE oauth_records SET expires_at = unixepoch() - 1 WHERE model = 'AccessToken' AND id_hash = ?",
      args: [hashToken(firstAccess)],
    });
    const expired = await challengeOf(firstAccess);
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
    const result = await mcp.callTool({ name: "read_agent_standing", arguments: {} });
    expect(result.structuredContent).toMatchObject({ agent_name: "Refreshed" });
    expect(token(client, "access_token")).not.toBe(firstAccess);
    expect(token(client, "refresh_token")).not.toBe(firstRefresh);
    await mcp.close();
  });

  it("is revoked whole when a rotated refresh token is replayed: the current tokens stop working too", async () => {
    const { mcp, client } = await signedIn("Replayed");
    const oldRefresh = token(client, "refresh_token");
    const renewed = await refresh(client, oldRefresh);
    expect(renewed.status).toBe(200);
    expect(renewed.body.refresh_token).not.toBe(oldRefresh);
    const replay = await refresh(client, oldRefresh);
    expect(replay).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await challengeOf(String(renewed.body.access_token))).status).toBe(401);
    expect(await refresh(client, String(renewed.body.refresh_token))).toMatchObject({
      body: { error: "invalid_grant" },
    });
    await mcp.close();
  });

  it("ends when the client revokes its refresh token (RFC 7009): the access token is refused with invalid_token", async () => {
    const { mcp, client } = await signedIn("Revoked");
    const access = token(client, "access_token");
    expect((await challengeOf(access)).status).toBe(200);
    const revoked = await postForm(`${bed.base}/oauth/revoke`, {
      token: token(client, "refresh_token"),
      client_id: clientId(client),
    });
    expect(revoked.status).toBe(200);
    const after = await challengeOf(access);
    expect(after.status).toBe(401);
    expect(after.challenge).toContain('error="invalid_token"');
    expect(after.challenge).toContain(`resource_metadata="${bed.base}/.well-known/oauth-protected-resource/mcp/agent"`);
    expect(await refresh(client, token(client, "refresh_token"))).toMatchObject({ body: { error: "invalid_grant" } });
    await mcp.close();
  });

  it("stops working when staff suspend the registration: tools refuse the token, and no new one is issued", async () => {
    const { mcp, client } = await signedIn("Suspended");
    const standing = (await mcp.callTool({ name: "read_agent_standing", arguments: {} })).structuredContent as {
      agent_id: string;
    };
    await setTrust(bed.t.services.database.client, standing.agent_id, "suspended");
    const refused = await mcpCall(bed.mcpAgent, token(client, "access_token"));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/suspended/);
    expect(await refresh(client, token(client, "refresh_token"))).toMatchObject({ body: { error: "invalid_grant" } });
    await mcp.close();
  });
});

describe("a revocation seen by another instance on the same database", () => {
  let other: TestApp;
  beforeAll(async () => {
    // Owners cached a second, like a server's default: only the standing epoch can make the other instance refuse.
    other = await createTestApp({ env: { DATABASE_URL: bed.t.config.database.url }, stateTtlMs: 1_000 });
  });
  afterAll(() => other?.close());

  it("is refused there from its next request once the standing epoch's freshness window has passed", async () => {
    const { mcp, client } = await signedIn("Two instances");
    const access = token(client, "access_token");
    const call = () =>
      other.app.request("/mcp/agent", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${access}`,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "read_agent_standing", arguments: {} },
        }),
      });
    expect((await call()).status).toBe(200);
    await postForm(`${bed.base}/oauth/revoke`, { token: token(client, "refresh_token"), client_id: clientId(client) });
    await new Promise((resolve) => setTimeout(resolve, STANDING_FRESH_MS + 10));
    expect((await call()).status).toBe(401);
    await mcp.close();
  });
});
