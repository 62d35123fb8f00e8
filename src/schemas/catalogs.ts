import { z } from "zod";

const ServiceRefSchema = z.strictObject({
  name: z.string(),
  identifier: z.string(),
  version: z.string(),
  url: z.string(),
});

/** A link target in an RFC 9264 linkset. */
export const LinkTargetSchema = z.strictObject({
  href: z.string(),
  type: z.string().optional(),
  title: z.string().optional(),
});

/** `/.well-known/api-catalog`: RFC 9727 catalog as RFC 9264 Linkset JSON; every member but `anchor` is a relation. */
export const ApiCatalogSchema = z.strictObject({
  linkset: z.array(z.record(z.string(), z.union([z.string(), z.array(LinkTargetSchema)]))).min(1),
});

/** `urn:air:<publisher>:<namespace>:<name>` (ARD v0.91). */
export const AIR_URN_PATTERN = "^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$";

/**
 * The entry types ARD's conformance test knows (ards-project/ard-spec `conformance-test`, ported as
 * Lighthouse's `ard-schema` audit, which warns on any other type).
 */
export const ARD_ENTRY_TYPES = [
  "application/ai-catalog+json",
  "application/agent-card+json",
  "application/a2a-agent-card+json",
  "application/mcp-server-card+json",
  "application/agent-skills+zip",
  "application/agent-skills+gzip",
  'text/markdown; profile="urn:air:agent-skills"',
  "application/ai-registry",
  "application/ai-registry+json",
] as const;

/** One entry of the AI catalog: a URN, what it is (`type`), and where (`url`). */
export const AiCatalogEntrySchema = z.strictObject({
  identifier: z.string().regex(new RegExp(AIR_URN_PATTERN)),
  displayName: z.string(),
  type: z.enum(ARD_ENTRY_TYPES),
  url: z.string(),
  version: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  /** What a person might ask that this entry answers; ARD v0.91 requires them (2–5). */
  representativeQueries: z.array(z.string()).min(2).max(5),
});

export type AiCatalogEntry = z.infer<typeof AiCatalogEntrySchema>;

/** `/.well-known/ai-catalog.json` and `/.well-known/ard.json` (AI Catalog 1.0 / ARD v0.91): the same bytes at both. */
export const AiCatalogSchema = z.strictObject({
  specVersion: z.literal("1.0"),
  host: z.strictObject({
    displayName: z.string(),
    identifier: z.string().regex(new RegExp(AIR_URN_PATTERN)),
    documentationUrl: z.string(),
  }),
  entries: z.array(AiCatalogEntrySchema).min(1),
});

/** `GET /api/v1`: the API's root, the `item` the api-catalog names. */
export const ApiRootSchema = z.strictObject({
  service: ServiceRefSchema,
  docs: z.string(),
  capabilities: z.string(),
  api_catalog: z.string(),
  openapi: z.string().optional(),
  operations: z.array(
    z.strictObject({ id: z.string(), method: z.enum(["GET", "POST"]), path: z.string(), summary: z.string() }),
  ),
});
