import { type CheckContext, type CheckOutcome, listProblems, notApplicable, scanError } from "../../check-types.ts";
import { visibleText } from "../../parse/html.ts";
import type { ProxyRefusal } from "../../render/guard/guard-proxy.ts";
import { HASH_ROUTE } from "../../render/page-facts.ts";
import type { RenderedPage, RenderedRole, RenderedSite } from "../../render/rendered-site.ts";

/** Where the rendered checks' verdicts come from, cited in the catalogue beside the page they rest on. */
export const NO_JAVASCRIPT_CRAWLERS = "https://vercel.com/blog/the-rise-of-the-ai-crawler";

function describeRefusal(refusal: ProxyRefusal): string {
  return `${refusal.target} (${refusal.reason})`;
}

/**
 * The scan's rendered site, or the outcome a rendered check gives when there is none: `n/a` when this instance has no
 * browser (the static report stands), `error` when the browser could not render (the scanner's trouble).
 */
export async function renderedSite(context: CheckContext): Promise<RenderedSite | CheckOutcome> {
  const outcome = context.rendering === null ? null : await context.rendering;
  if (outcome === null) return notApplicable("the scan did not render pages");
  if (outcome.status !== "rendered")
    return outcome.status === "unavailable" ? notApplicable(outcome.note) : scanError(outcome.note);
  return outcome;
}

export function isRenderedSite(value: RenderedSite | CheckOutcome): value is RenderedSite {
  return "pages" in value;
}

/** The page's path, as messages name it (with its hash route, for a hash-routed app). */
export function pathOf(page: Pick<RenderedPage, "url">): string {
  const url = new URL(page.url);
  return `${url.pathname}${url.search}${HASH_ROUTE.test(url.hash) ? url.hash : ""}`;
}

/**
 * Records a rendered page in the check's evidence: what the browser asked (with its User-Agent), the status, where
 * it ended, the first of its rendered text, and what the guard refused while it loaded.
 */
export function recordPage(context: CheckContext, site: RenderedSite, page: RenderedPage, finding: string): void {
  const refused =
    page.refused.length === 0
      ? ""
      : `; the guard refused ${page.refused.length} request(s): ${listProblems(page.refused.map(describeRefusal), 3)}`;
  context.trail.recordRendered({
    request: { method: "GET", url: page.url, headers: { "user-agent": site.userAgent } },
    response:
      page.status === null || page.status < 100 || page.status > 599
        ? null
        : {
            status: page.status,
            url: page.finalUrl,
            redirects: [],
            headers: {},
            excerpt: visibleText(page.html)
              .slice(0, 500)
              .replace(/[\uD800-\uDBFF]$/, ""),
          },
    error: page.error,
    reused: false,
    finding: `rendered in Chromium in ${(page.durationMs / 1000).toFixed(1)} s: ${finding}${refused}`,
  });
}

/** The rendered page of a role, or the outcome when it rendered nothing to judge (the scanner's trouble). */
export function usablePage(site: RenderedSite, role: RenderedRole, name: string): RenderedPage | CheckOutcome {
  const page = site.pages.find((candidate) => candidate.role === role);
  if (page === undefined) return scanError(`${name} was not rendered within the rendering's time limit`);
  if (page.status === null || page.html === "")
    return scanError(`${name} could not be rendered: ${page.error ?? "the browser read nothing"}`);
  return page;
}

export function isPage(value: RenderedPage | CheckOutcome): value is RenderedPage {
  return "role" in value;
}

/** The rendered site and its homepage, ready to judge. */
export interface RenderedHome {
  site: RenderedSite;
  home: RenderedPage;
}

/** The rendered site and its homepage, or why a check of it cannot judge (not rendered, the homepage unusable). */
export async function renderedHome(context: CheckContext): Promise<RenderedHome | CheckOutcome> {
  const site = await renderedSite(context);
  if (!isRenderedSite(site)) return site;
  const home = usablePage(site, "home", "the homepage");
  return isPage(home) ? { site, home } : home;
}

export function hasHome(value: RenderedHome | CheckOutcome): value is RenderedHome {
  return "home" in value;
}
