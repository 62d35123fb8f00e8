import { z } from "zod";

/** `urn:air:<publisher>:<namespace>:<name>` (ARD v0.91). */
export const AIR_URN_PATTERN = /^urn:air:[a-zA-Z0-9.-]+(:[a-zA-Z0-9._-]+)+$/;

/** An AI Catalog entry (Agent-Card/ai-catalog; `mediaType` was renamed `type` by ADR-0014, so both are read). */
export const AiCatalogEntrySchema = z
  .object({
    identifier: z.string().regex(AIR_URN_PATTERN, "must be a urn:air: identifier"),
    displayName: z.string().min(1).optional(),
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

export const AiCatalogSchema = z.object({
  specVersion: z.string().min(1),
  host: z.object({
    displayName: z.string().min(1),
    identifier: z.string().optional(),
    documentationUrl: z.string().optional(),
  }),
  entries: z.array(z.unknown()).min(1, "must list at least one entry"),
});
export type AiCatalog = z.infer<typeof AiCatalogSchema>;

export function entryMediaType(entry: AiCatalogEntry): string {
  return (entry.type ?? entry.mediaType ?? "").toLowerCase();
}

export const MCP_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
