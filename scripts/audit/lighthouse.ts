import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumPath } from "../../src/lib/chromium.ts";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo", "agentic-browsing"] as const;
export type Category = (typeof CATEGORIES)[number];

/** One audit of a category as Lighthouse scored it: `score` null when it was not applicable or informative only. */
export interface AuditResult {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  /** Rows the audit lists (tools, forms, failing rules); null when it lists nothing. */
  items: number | null;
}

/** Rows of an audit's details: a table's items, or the items of each table of a list (webmcp-registered-tools). */
function detailRows(details: unknown): number | null {
  if (typeof details !== "object" || details === null || !("items" in details) || !Array.isArray(details.items))
    return null;
  if (!("type" in details) || details.type !== "list") return details.items.length;
  // Each item of a list is a section whose `value` is a table.
  return details.items.reduce((sum: number, section: unknown) => {
    const table = typeof section === "object" && section !== null && "value" in section ? section.value : section;
    return sum + (detailRows(table) ?? 0);
  }, 0);
}

export interface PageAudit {
  url: string;
  /** The Lighthouse version that ran, e.g. `13.5.0`. */
  version: string;
  /** 0–100 per category; `null` when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** Titles of the audits that cost points, so a score below 100 says why. */
  failing: string[];
  /** Each audit of each category, as Lighthouse scored it. */
  audits: Record<Category, AuditResult[]>;
}

/**
 * Audits that do not apply to some pages, by the path prefix they apply to, each with the reason
 * printed beside the scores (README, "audit:pages"). A report page is the only one so far: it is
 * `noindex` on purpose, since its link is what gives access to one visitor's report.
 */
export const NOT_APPLICABLE: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "/checks/": {
    "is-crawlable":
      "a report page (/checks/{id}) is noindex on purpose: its link is what gives access to one visitor's report, so search engines must not list it",
  },
};

function notApplicableOn(url: string): Record<string, string> {
  const { pathname } = new URL(url);
  return Object.assign(
    {},
    ...Object.entries(NOT_APPLICABLE)
      .filter(([prefix]) => pathname.startsWith(prefix))
      .map(([, audits]) => audits),
  );
}

/**
 * Runs Lighthouse's default audit (a phone with simulated throttling) of each URL in Debian's
 * Chromium, launched headless and kept off the network; nothing is downloaded. With `runs` > 1 each
 * page is audited that many times and the run with the median performance score is kept, as
 * Lighthouse's docs advise on a machine whose load varies.
 */
export async function auditPages(
  urls: readonly string[],
  runs = 1,
  categories: readonly Category[] = CATEGORIES,
): Promise<PageAudit[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(process.env),
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // WebMCP as Lighthouse's own smoke tests run it: without it the three webmcp-* audits are not applicable.
      "--enable-features=WebMCPTesting,DevToolsWebMCPSupport",
    ],
  });
  try {
    const audits: PageAudit[] = [];
    for (const url of urls) {
      const attempts: PageAudit[] = [];
      for (let run = 0; run < runs; run++) attempts.push(await auditOnce(url, chrome.port, categories));
      attempts.sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
      const median = attempts[Math.floor(attempts.length / 2)];
      if (median) audits.push(median);
    }
    return audits;
  } finally {
    chrome.kill();
  }
}

async function auditOnce(url: string, port: number, categories: readonly Category[]): Promise<PageAudit> {
  const result = await lighthouse(url, {
    port,
    logLevel: "error",
    onlyCategories: [...categories],
    skipAudits: Object.keys(notApplicableOn(url)),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories: scored, audits: details } = result.lhr;
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = scored[id]?.score;
      return [id, typeof score === "number" ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;
  const audits = Object.fromEntries(
    CATEGORIES.map((id) => [
      id,
      (scored[id]?.auditRefs ?? []).flatMap((ref) => {
        const audit = details[ref.id];
        return audit
          ? [
              {
                id: ref.id,
                title: audit.title,
                score: audit.score,
                scoreDisplayMode: audit.scoreDisplayMode,
                items: detailRows(audit.details),
              },
            ]
          : [];
      }),
    ]),
  ) as Record<Category, AuditResult[]>;
  const failing = CATEGORIES.flatMap((id) =>
    (scored[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => details[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => `${id}: ${audit?.title} (${audit?.displayValue ?? audit?.score})`),
  );
  return { url, version: result.lhr.lighthouseVersion, scores, failing, audits };
}
