import type { Content } from "../../content/model.ts";

/**
 * How long a response may be cached. `docs` and `page`: up to 60 s (the API description's bound for
 * documentation); `discovery`: an hour, as the MCP card extension recommends; `live`: always
 * revalidated (the server computes it per request); `asset`: content-hashed, forever.
 */
export type CachePolicy = "docs" | "page" | "discovery" | "live" | "asset";

export const CACHE_CONTROL: Record<CachePolicy, string> = {
  docs: "public, max-age=60",
  page: "public, max-age=60",
  discovery: "public, max-age=3600",
  live: "no-cache",
  asset: "public, max-age=31536000, immutable",
};

export const TYPES = {
  json: "application/json",
  schema: "application/schema+json",
  linkset: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  markdown: "text/markdown; charset=utf-8",
  text: "text/plain; charset=utf-8",
  html: "text/html; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  openapi: "application/vnd.oai.openapi+json",
  mcpCard: "application/mcp-server-card+json",
  aiCatalog: "application/ai-catalog+json",
  keyDirectory: "application/http-message-signatures-directory+json",
  svg: "image/svg+xml",
} as const;

/** One file the build writes and the server (or a CDN) answers at `url`. */
export interface Artifact {
  url: string;
  body: string | Uint8Array;
  type: string;
  cache: CachePolicy;
  /** The origin must answer it (runtime state); the file is the base document it starts from. */
  live?: boolean;
}

export interface BuildContext {
  content: Content;
  /** Public base URL, no trailing slash. */
  siteUrl: string;
  /** Public base URL of the HTML docs, no trailing slash. */
  docsUrl: string;
  /** When this build ran, ISO 8601 with milliseconds. */
  builtAt: string;
}

export function jsonArtifact(url: string, value: unknown, cache: CachePolicy, type: string = TYPES.json): Artifact {
  return { url, body: `${JSON.stringify(value, null, 2)}\n`, type, cache };
}
