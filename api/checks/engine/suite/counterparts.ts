/**
 * How the suite lines up with the two scanners people compare it with (landscape §1.1, §1.2): Cloudflare's
 * isitagentready rubric and Lighthouse's Agentic Browsing audits. Every external id is either the counterpart of one
 * of our checks or listed below with the reason it has none, so the catalogue can say where each verdict comes from.
 */

/** One of our checks and the external ids it answers to; a few of our checks cover several of theirs. */
export interface Counterpart {
  cloudflare?: string | readonly string[];
  lighthouse?: string | readonly string[];
}

export type ExternalScanner = "cloudflare" | "lighthouse";

export interface MissingCounterpart {
  scanner: ExternalScanner;
  id: string;
  reason: string;
}

/** Cloudflare's check ids as of Oct 2026 (isitagentready `enabledChecks`, plus `ap2`). */
export const CLOUDFLARE_CHECK_IDS: readonly string[] = [
  "robotsTxt",
  "sitemap",
  "linkHeaders",
  "dnsAid",
  "markdownNegotiation",
  "robotsTxtAiRules",
  "contentSignals",
  "webBotAuth",
  "apiCatalog",
  "oauthDiscovery",
  "oauthProtectedResource",
  "authMd",
  "mcpServerCard",
  "a2aAgentCard",
  "agentSkills",
  "webMcp",
  "ard",
  "x402",
  "mpp",
  "ucp",
  "acp",
  "ap2",
];

/** Lighthouse's Agentic Browsing category (core/config/agentic-browsing-config.js, plus ard-schema). */
export const LIGHTHOUSE_AGENTIC_AUDITS: readonly string[] = [
  "agent-accessibility-tree",
  "webmcp-registered-tools",
  "webmcp-form-coverage",
  "webmcp-schema-validity",
  "cumulative-layout-shift",
  "llms-txt",
  "ard-schema",
];

export const COUNTERPARTS: Readonly<Record<string, Counterpart>> = {
  "robots.exists": { cloudflare: "robotsTxt" },
  "robots.sitemap": { cloudflare: "sitemap" },
  "link.headers": { cloudflare: "linkHeaders" },
  "dns.aid": { cloudflare: "dnsAid" },
  "md.negotiate": { cloudflare: "markdownNegotiation" },
  "policy.ai-bots": { cloudflare: "robotsTxtAiRules" },
  "policy.content-signals": { cloudflare: "contentSignals" },
  "policy.webbotauth": { cloudflare: "webBotAuth" },
  "catalog.api": { cloudflare: "apiCatalog" },
  "catalog.ai": { cloudflare: "ard", lighthouse: "ard-schema" },
  "oauth.as": { cloudflare: "oauthDiscovery" },
  "oauth.prm": { cloudflare: "oauthProtectedResource" },
  "auth-md": { cloudflare: "authMd" },
  "mcp.card": { cloudflare: "mcpServerCard" },
  "a2a.card": { cloudflare: "a2aAgentCard" },
  "skills.index": { cloudflare: "agentSkills" },
  "webmcp.tools": { cloudflare: "webMcp", lighthouse: ["webmcp-registered-tools", "webmcp-form-coverage"] },
  "webmcp.valid": { lighthouse: "webmcp-schema-validity" },
  // The same audits read as Lighthouse reads them, from a rendered page (render: true).
  "render.webmcp": { lighthouse: ["webmcp-registered-tools", "webmcp-form-coverage"] },
  "render.webmcp-valid": { lighthouse: "webmcp-schema-validity" },
  "render.agent-tree": { lighthouse: "agent-accessibility-tree" },
  "render.layout-shift": { lighthouse: "cumulative-layout-shift" },
  "llms.exists": { lighthouse: "llms-txt" },
  "llms.structure": { lighthouse: "llms-txt" },
  "commerce.protocols": { cloudflare: ["mpp", "ucp", "acp"] },
  "commerce.ap2": { cloudflare: "ap2" },
  "commerce.acp": { cloudflare: "acp" },
  // Judged only where an x402 discovery document or the OpenAPI description names a paid operation, never by guessing.
  "commerce.x402": { cloudflare: "x402" },
};

/** Every Lighthouse agentic audit now has a counterpart (the rendered checks answer the two that need a browser). */
export const WITHOUT_COUNTERPART: readonly MissingCounterpart[] = [];

function asList(ids: string | readonly string[] | undefined): readonly string[] {
  return ids === undefined ? [] : typeof ids === "string" ? [ids] : ids;
}

/** The external ids of one scanner that some check of ours answers to. */
export function coveredIds(scanner: ExternalScanner): string[] {
  return Object.values(COUNTERPARTS).flatMap((row) => asList(row[scanner]));
}

/** Our checks that answer to one external id (empty when it has none). */
export function checksFor(scanner: ExternalScanner, id: string): string[] {
  return Object.entries(COUNTERPARTS)
    .filter(([, row]) => asList(row[scanner]).includes(id))
    .map(([check]) => check);
}
