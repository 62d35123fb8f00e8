/**
 * Where each check of this suite stands against the two scanners people compare us with: Cloudflare's isitagentready
 * (its check ids, as its API's `enabledChecks` names them) and Lighthouse's Agentic Browsing category (its audit ids).
 * The catalogue page renders both tables, so a reader can line our report up with theirs. Sources: the readiness
 * landscape (§1.1, §1.2), github.com/safa0/isitagentready (56703d5), GoogleChrome/lighthouse (f8eac39).
 */
export interface Counterpart {
  /** The Cloudflare isitagentready check id this check answers the same question as. */
  cloudflare?: string;
  /** The Lighthouse Agentic Browsing audit id this check answers the same question as. */
  lighthouse?: string;
}

export const COUNTERPARTS: Readonly<Record<string, Counterpart>> = {
  "robots.exists": { cloudflare: "robotsTxt" },
  "robots.sitemap": { cloudflare: "sitemap" },
  "link.headers": { cloudflare: "linkHeaders" },
  "md.negotiate": { cloudflare: "markdownNegotiation" },
  "policy.ai-bots": { cloudflare: "robotsTxtAiRules" },
  "policy.content-signals": { cloudflare: "contentSignals" },
  "policy.webbotauth": { cloudflare: "webBotAuth" },
  "catalog.api": { cloudflare: "apiCatalog" },
  "catalog.ai": { cloudflare: "ard", lighthouse: "ard-schema" },
  "oauth.as": { cloudflare: "oauthDiscovery" },
  "oauth.prm": { cloudflare: "oauthProtectedResource" },
  "mcp.card": { cloudflare: "mcpServerCard" },
  "a2a.card": { cloudflare: "a2aAgentCard" },
  "skills.index": { cloudflare: "agentSkills" },
  "llms.exists": { lighthouse: "llms-txt" },
  "llms.structure": { lighthouse: "llms-txt" },
  "commerce.protocols": { cloudflare: "ucp" },
};

/** An id of another scanner that no check of this suite answers, and why. */
export interface Unmatched {
  scanner: "cloudflare" | "lighthouse";
  id: string;
  reason: string;
}

export const UNMATCHED: readonly Unmatched[] = [
  { scanner: "cloudflare", id: "acp", reason: "reported by commerce.protocols, with UCP and MPP" },
  { scanner: "cloudflare", id: "mpp", reason: "reported by commerce.protocols (x-payment-info in the OpenAPI document)" },
  {
    scanner: "cloudflare",
    id: "x402",
    reason: "not yet checked: a 402 probe would have to guess a paid path, which the scan does not do",
  },
  { scanner: "cloudflare", id: "dnsAid", reason: "not yet checked (DNS-based agent discovery)" },
  { scanner: "cloudflare", id: "authMd", reason: "not yet checked (auth.md)" },
  { scanner: "cloudflare", id: "webMcp", reason: "not yet checked (WebMCP tools in the served page)" },
  { scanner: "cloudflare", id: "ap2", reason: "not yet checked (AP2 in the A2A card)" },
  {
    scanner: "lighthouse",
    id: "agent-accessibility-tree",
    reason: "future work: it runs axe on a rendered page, and the scan does not render pages",
  },
  {
    scanner: "lighthouse",
    id: "cumulative-layout-shift",
    reason: "future work: layout shift is measured in a rendered page, and the scan does not render pages",
  },
  { scanner: "lighthouse", id: "webmcp-registered-tools", reason: "not yet checked (WebMCP)" },
  { scanner: "lighthouse", id: "webmcp-form-coverage", reason: "not yet checked (WebMCP)" },
  { scanner: "lighthouse", id: "webmcp-schema-validity", reason: "not yet checked (WebMCP)" },
];
