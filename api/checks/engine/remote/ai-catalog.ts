import { z } from "zod";

/** `urn:air:<publisher>:<namespace>:<name>`: the ARD v0.91 / MCP Catalog convention for identifiers (ADR 0015). */
export const AIR_URN_PATTERN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/;

/**
 * A Catalog Entry (Agent-Card/ai-catalog specification, §Catalog Entry): identifier, displayName and a media type
 * are MUSTs, with exactly one of url and data. `mediaType` was renamed `type` by ADR-0014, so both are read. The
 * identifier SHOULD be a URN or URI; catalog.ai judges that itself rather than refusing the entry.
 */
export const AiCatalogEntrySchema = z
  .object({
    identifier: z.string().min(1),
    displayName: z.string().min(1),
    type: z.string().min(1).optional(),
    mediaType: z.string().min(1).optional(),
    url: z.string().min(1).optional(),
    data: z.unknown().optional(),
    description: z.string().optional(),
    version: z.string().optional(),
    representativeQueries: z.array(z.string()).optional(),
  })
  .refine((entry) => (entry.url === undefined) !== (entry.data === undefined), "must have exactly one of url and data")
  .refine((entry) => entry.type !== undefined || entry.mediaType !== undefined, "must name its media type (type)");
export type AiCatalogEntry = z.infer<typeof AiCatalogEntrySchema>;

/** The top level: specVersion and entries are MUSTs (entries may be empty); host is optional, with a displayName. */
export const AiCatalogSchema = z.object({
  specVersion: z.string().min(1),
  host: z
    .object({
      displayName: z.string().min(1),
      identifier: z.string().optional(),
      documentationUrl: z.string().optional(),
    })
    .optional(),
  entries: z.array(z.unknown()),
});
export type AiCatalog = z.infer<typeof AiCatalogSchema>;

export function entryMediaType(entry: AiCatalogEntry): string {
  return (entry.type ?? entry.mediaType ?? "").toLowerCase();
}

export const MCP_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
