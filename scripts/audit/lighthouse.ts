import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumPath } from "../../test/helpers/chromium.ts";

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface PageAudit {
  url: string;
  /** 0–100 per category; `null` when Lighthouse could not score it. */
  scores: Record<Category, number | null>;
  /** Titles of the audits that cost points, so a score below 100 says why. */
  failing: string[];
}

/**
 * Audits left out, each with the reason printed beside the scores. Lighthouse 12 (the last that runs
 * on Node 20) reads `Content-Signal` in robots.txt as an unknown directive; Lighthouse 13 added it to
 * its list of known directives, and our own readiness suite requires it (policy.content-signals).
 */
export const SKIPPED_AUDITS: Readonly<Record<string, string>> = {
  "robots-txt":
    "robots.txt validity: Lighthouse 12 does not know the Content-Signal directive (Lighthouse 13, which needs Node 22, does)",
};

/**
 * Runs Lighthouse's default audit (a phone with simulated throttling) of each URL in Debian's
 * Chromium, launched headless and kept off the network; nothing is downloaded. With `runs` > 1 each
 * page is audited that many times and the run with the median performance score is kept, as
 * Lighthouse's docs advise on a machine whose load varies.
 */
export async function auditPages(urls: readonly string[], runs = 1): Promise<PageAudit[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const audits: PageAudit[] = [];
    for (const url of urls) {
      const attempts: PageAudit[] = [];
      for (let run = 0; run < runs; run++) attempts.push(await auditOnce(url, chrome.port));
      attempts.sort((a, b) => (a.scores.performance ?? 0) - (b.scores.performance ?? 0));
      const median = attempts[Math.floor(attempts.length / 2)];
      if (median) audits.push(median);
    }
    return audits;
  } finally {
    chrome.kill();
  }
}

async function auditOnce(url: string, port: number): Promise<PageAudit> {
  const result = await lighthouse(url, {
    port,
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    skipAudits: Object.keys(SKIPPED_AUDITS),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits: details } = result.lhr;
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => {
      const score = categories[id]?.score;
      return [id, typeof score === "number" ? Math.round(score * 100) : null];
    }),
  ) as Record<Category, number | null>;
  const failing = CATEGORIES.flatMap((id) =>
    (categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => details[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => `${id}: ${audit?.title} (${audit?.displayValue ?? audit?.score})`),
  );
  return { url, scores, failing };
}
