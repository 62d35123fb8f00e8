import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OAuthBed, PersonDrivenClient, startOAuthBed } from "../../helpers/oauth.ts";
import { NEW_AGENT } from "../../helpers/oauth-person.ts";

let bed: OAuthBed;
beforeAll(async () => {
  bed = await startOAuthBed();
});
afterAll(() => bed?.close());

/** Connects knowing only the URL: a 401 starts the sign-in, the person consents, the code is exchanged, and it connects again. */
async function signInWithV1(client: PersonDrivenClient): Promise<Client> {
  const first = new Client({ name: "v1-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client });
  await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);
  await transport.finishAuth(client.code);
  const connected = new Client({ name: "v1-test", version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(new URL(bed.mcpAgent), { authProvider: client }));
  return connected;
}

describe("the official MCP SDK v1 client signs in to /mcp/agent", () => {
  it("registers by DCR, passes the consent page as a person would, and calls a tool as the new registration", async () => {
    const client = new PersonDrivenClient(bed.base, { who: "new", fields: { ...NEW_AGENT, agent_name: "V1 Scout" } });
    const mcp = await signInWithV1(client);
    const result = await mcp.callTool({ name: "read_agent_standing", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      agent_name: "V1 Scout",
      scopes: ["waitlist:write", "survey:write"],
    });
    expect(client.accessToken).toMatch(/^oat_/);
    await mcp.close();
  });
});
