import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** The official MCP client, connected over Streamable HTTP to `endpoint` with these request headers (a bearer token). */
export async function connectMcp(endpoint: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "agentready-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers } }));
  return client;
}
