import { z } from "zod";

/**
 * The JSON-RPC 2.0 message a client POSTs to `/mcp` (MCP Streamable HTTP, 2025-11-25: one request or
 * notification per POST, no batches). Open: `params` belong to the MCP method, which the SDK validates.
 */
export const McpRequestSchema = z
  .looseObject({
    jsonrpc: z.literal("2.0"),
    /** Present on requests, absent on notifications. */
    id: z.union([z.string(), z.int()]).optional(),
    method: z.string().min(1),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ title: "MCP JSON-RPC request or notification" });

const JsonRpcErrorSchema = z.strictObject({ code: z.int(), message: z.string(), data: z.unknown().optional() });

/** `200` from `/mcp`: the JSON-RPC response to the request (errors in the protocol are JSON-RPC errors, not HTTP ones). */
export const McpResponseSchema = z
  .union([
    z.strictObject({
      jsonrpc: z.literal("2.0"),
      id: z.union([z.string(), z.int()]),
      result: z.record(z.string(), z.unknown()),
    }),
    z.strictObject({
      jsonrpc: z.literal("2.0"),
      id: z.union([z.string(), z.int(), z.null()]),
      error: JsonRpcErrorSchema,
    }),
  ])
  .meta({ title: "MCP JSON-RPC response" });

/** MCP tool annotations (hints for clients; never a security boundary). */
export const ToolAnnotationsSchema = z.strictObject({
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  /** True when the tool reaches beyond this service (a readiness check fetches another site). */
  openWorldHint: z.boolean(),
});

/** A tool exactly as MCP `tools/list` describes it. */
export const ToolDescriptionSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/),
  title: z.string(),
  /** What it does and when to use it. */
  description: z.string(),
  /** JSON Schema (draft-07, as the MCP SDK emits) of the arguments. */
  inputSchema: z.record(z.string(), z.unknown()),
  /** JSON Schema of `structuredContent` in a successful result. */
  outputSchema: z.record(z.string(), z.unknown()),
  annotations: ToolAnnotationsSchema,
  /** `dev.agentready/operation`: the HTTP operation it mirrors; `dev.agentready/authentication`: `none` or `bearer`. */
  _meta: z.record(z.string(), z.unknown()),
});
export type ToolDescription = z.infer<typeof ToolDescriptionSchema>;

/** `GET /api/v1/tools`: the active tool catalogue, the same list MCP `tools/list` returns. */
export const ToolIndexSchema = z.strictObject({
  /** Names the active set of tools: it changes whenever a tool appears, disappears or changes shape. */
  revision: z.string().regex(/^[0-9a-f]{12}$/),
  /** The MCP endpoint the tools are called at. */
  endpoint: z.string(),
  data: z.array(ToolDescriptionSchema),
});
export type ToolIndex = z.infer<typeof ToolIndexSchema>;

/** The only `$schema` the server-card extension accepts. */
export const MCP_SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";

/**
 * The MCP server card we publish: the v1 fields of modelcontextprotocol/experimental-ext-server-card plus
 * the SEP-1649 fields (`serverInfo`, `endpoint`, `protocolVersion`, `capabilities`) older scanners read.
 * The extension's schema is open, so the hybrid stays a valid v1 card.
 */
export const McpServerCardSchema = z.strictObject({
  $schema: z.literal(MCP_SERVER_CARD_SCHEMA),
  /** Reverse-DNS with exactly one `/` (content/service.yaml `identifier`). */
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  version: z.string().min(1).max(255),
  description: z.string().min(1).max(100),
  title: z.string().min(1).max(100),
  websiteUrl: z.string(),
  remotes: z
    .array(
      z.strictObject({
        type: z.literal("streamable-http"),
        url: z.string(),
        supportedProtocolVersions: z.array(z.string()).min(1),
      }),
    )
    .min(1),
  serverInfo: z.strictObject({ name: z.string(), title: z.string(), version: z.string() }),
  endpoint: z.string(),
  protocolVersion: z.string(),
  capabilities: z.strictObject({
    tools: z.strictObject({ listChanged: z.boolean() }),
    resources: z.strictObject({ subscribe: z.boolean(), listChanged: z.boolean() }),
    prompts: z.strictObject({ listChanged: z.boolean() }),
  }),
});
export type McpServerCard = z.infer<typeof McpServerCardSchema>;
