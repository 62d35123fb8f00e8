import type { CheckContext } from "./check-types.ts";
import type { ScanResponse } from "./fetch/fetcher.ts";
import { isRecord, parseJson } from "./parse/json.ts";
import { mediaTypeOf } from "./parse/media-type.ts";
import { sseDataPayloads } from "./parse/sse.ts";

/** The newest protocol revision the probe speaks; servers answer with the one they choose (MCP lifecycle). */
export const PROBE_PROTOCOL_VERSION = "2025-11-25";

export interface McpProbe {
  status: "ok" | "auth-required" | "failed";
  problems: string[];
  cautions: string[];
  serverInfo: { name: string; version: string } | null;
  protocolVersion: string | null;
  tools: number;
}

/** A JSON-RPC message with `id` from a Streamable HTTP answer, which may be JSON or an SSE stream (MCP transports). */
function rpcResult(
  response: ScanResponse,
  id: number,
): { result: Record<string, unknown> | null; error: string | null } {
  const type = mediaTypeOf(response);
  const bodies = type === "text/event-stream" ? sseDataPayloads(response.text) : [response.text];
  for (const body of bodies) {
    const parsed = parseJson(body);
    if (!parsed.ok) continue;
    const messages = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
    for (const message of messages) {
      if (!isRecord(message) || message.id !== id) continue;
      if (isRecord(message.error)) return { result: null, error: String(message.error.message ?? "JSON-RPC error") };
      if (isRecord(message.result)) return { result: message.result, error: null };
    }
  }
  return { result: null, error: `no JSON-RPC response with id ${id} in a ${type || "untyped"} body` };
}

/**
 * initialize → notifications/initialized → tools/list, and nothing else: the probe never calls a tool or any method
 * with side effects (landscape §3.3, "live probe").
 */
export async function probeMcpEndpoint(context: CheckContext, endpoint: string): Promise<McpProbe> {
  const probe: McpProbe = {
    status: "failed",
    problems: [],
    cautions: [],
    serverInfo: null,
    protocolVersion: null,
    tools: 0,
  };
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  const post = (body: unknown): Promise<ScanResponse> =>
    context.trail.request({ method: "POST", url: endpoint, headers: { ...headers }, body: JSON.stringify(body) });
  const initialize = await post({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: PROBE_PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: "AgentReadyBot", version: "1.0.0" },
    },
  });
  if (initialize.status === 401) {
    const challenge = initialize.headers["www-authenticate"] ?? "";
    if (/resource_metadata=/i.test(challenge)) return { ...probe, status: "auth-required" };
    probe.problems.push("initialize answers 401 without WWW-Authenticate: Bearer resource_metadata=… (RFC 9728 §5.1)");
    return probe;
  }
  if (initialize.status < 200 || initialize.status >= 300) {
    probe.problems.push(`initialize answers ${initialize.status} at ${new URL(endpoint).pathname}`);
    return probe;
  }
  const init = rpcResult(initialize, 1);
  const serverInfo = isRecord(init.result?.serverInfo) ? init.result.serverInfo : null;
  if (
    init.result === null ||
    serverInfo === null ||
    typeof serverInfo.name !== "string" ||
    typeof serverInfo.version !== "string"
  ) {
    probe.problems.push(`initialize did not return serverInfo: ${init.error ?? "missing name/version"}`);
    return probe;
  }
  probe.serverInfo = { name: serverInfo.name, version: serverInfo.version };
  probe.protocolVersion = typeof init.result.protocolVersion === "string" ? init.result.protocolVersion : null;
  const session = initialize.headers["mcp-session-id"];
  if (session !== undefined) headers["mcp-session-id"] = session;
  if (probe.protocolVersion !== null) headers["mcp-protocol-version"] = probe.protocolVersion;
  const initialized = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  if (initialized.status !== 202 && initialized.status !== 200 && initialized.status !== 204) {
    probe.cautions.push(`notifications/initialized answers ${initialized.status} (202 expected)`);
  }
  const listed = rpcResult(await post({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }), 2);
  const tools = Array.isArray(listed.result?.tools) ? listed.result.tools : null;
  if (tools === null) {
    probe.problems.push(`tools/list failed: ${listed.error ?? "no tools array"}`);
    return probe;
  }
  probe.tools = tools.length;
  const undocumented = tools.filter(
    (tool) =>
      !isRecord(tool) ||
      typeof tool.description !== "string" ||
      tool.description.trim() === "" ||
      !isRecord(tool.inputSchema),
  );
  if (undocumented.length > 0)
    probe.cautions.push(`${undocumented.length} of ${tools.length} tool(s) lack a description or inputSchema`);
  return { ...probe, status: "ok" };
}
