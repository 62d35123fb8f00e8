import { z } from "zod";
import { isRecord } from "../parse/json.ts";

/**
 * The `$schema` URLs of the server-card families (experimental-ext-server-card schema.ts): versioned by `vN`, never by
 * date. v2 is current; v1 cards are still served (this service's own among them) and read the same way. A registry
 * `server.json` (modelcontextprotocol/registry docs/reference/server-json) served as the card carries the same fields;
 * its current schema is dated 2025-12-11 (CHANGELOG.md).
 */
export const MCP_CARD_SCHEMA_URLS = [
  "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
  "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json",
  "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
] as const;

/** server.json schemas before 2025-12-11 (2025-07-09 to 2025-10-17): readable, but an outdated shape. */
const OLDER_SERVER_JSON =
  /^https:\/\/static\.modelcontextprotocol\.io\/schemas\/2025-(0[7-9]|10)-\d\d\/server\.schema\.json$/;

const VERSION_RANGE = /[\^~<>=*|\s]|(^|\.)x(\.|$)|latest/i;

/** modelcontextprotocol/experimental-ext-server-card schema.ts (v1); the object stays open for hybrid cards. */
export const McpCardV1Schema = z.object({
  $schema: z.enum(MCP_CARD_SCHEMA_URLS, { error: `must be exactly ${MCP_CARD_SCHEMA_URLS.join(" or ")}` }),
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/, "must be reverse-DNS with one slash, e.g. com.example/server"),
  version: z
    .string()
    .min(1)
    .max(255)
    .refine((version) => !VERSION_RANGE.test(version), "must be one version, not a range"),
  description: z.string().min(1).max(100),
  title: z.string().max(100).optional(),
  remotes: z
    .array(
      z.object({
        type: z.enum(["streamable-http", "sse"]),
        url: z.string().min(1),
        supportedProtocolVersions: z.array(z.string()).optional(),
      }),
    )
    .optional(),
});
export type McpCardV1 = z.infer<typeof McpCardV1Schema>;

/**
 * SEP-1649 (`serverInfo`), the flat `{name, version, endpoint}` shape older scanners still read, and a server.json of
 * an older registry schema.
 */
export const LegacyMcpCardSchema = z.union([
  z.object({ $schema: z.string().regex(OLDER_SERVER_JSON), name: z.string().min(1), version: z.string().min(1) }),
  z.object({ serverInfo: z.object({ name: z.string().min(1), version: z.string().min(1) }) }),
  z.object({ name: z.string().min(1), version: z.string().min(1), endpoint: z.string().min(1) }),
]);

export interface McpCardIdentity {
  name: string | null;
  version: string | null;
  /** `serverInfo.name`, which is what an MCP server reports at initialize. */
  runtimeName: string | null;
}

export function cardIdentity(card: unknown): McpCardIdentity {
  if (!isRecord(card)) return { name: null, version: null, runtimeName: null };
  const serverInfo = isRecord(card.serverInfo) ? card.serverInfo : {};
  const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
  return {
    name: text(card.name) ?? text(serverInfo.name),
    // SEP-1649 cards carry the card format's own "version" beside serverInfo.version, the server's.
    version: text(serverInfo.version) ?? text(card.version),
    runtimeName: text(serverInfo.name),
  };
}

/** Streamable-HTTP endpoints a card names: v1 `remotes[].url`, legacy `endpoint`/`url`/`transport.url`. */
export function cardEndpoints(card: unknown, base: string): string[] {
  if (!isRecord(card)) return [];
  const raw: unknown[] = [];
  if (Array.isArray(card.remotes)) {
    for (const remote of card.remotes) if (isRecord(remote) && remote.type !== "sse") raw.push(remote.url);
  }
  raw.push(card.endpoint, card.url);
  if (isRecord(card.transport)) raw.push(card.transport.url, card.transport.endpoint);
  const endpoints = new Set<string>();
  for (const value of raw) {
    if (typeof value !== "string" || value.includes("{")) continue;
    try {
      endpoints.add(new URL(value, base).href);
    } catch {}
  }
  return [...endpoints];
}
