import type { ScanResponse } from "../fetch/fetcher.ts";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { htmlAnchors } from "../parse/html.ts";
import { isMarkdownMediaType, isSuccess } from "../parse/media-type.ts";
import { ACCEPT_HTML, type DocumentContext } from "./document.ts";
import { loadHome, loadLlmsTxt, loadRobots, loadSitemap, pageLinks } from "./site.ts";

const NON_PAGE_PATH = /\.(md|mdx|txt|json|xml|ya?ml|gz|pdf|png|jpe?g|svg|webp|ico|css|js)$/i;

function isPageUrl(context: DocumentContext, url: string): boolean {
  const parsed = new URL(url);
  return (
    parsed.origin === context.target.origin &&
    parsed.pathname !== "/" &&
    !NON_PAGE_PATH.test(parsed.pathname) &&
    !parsed.pathname.startsWith("/.well-known/")
  );
}

/** One content page besides the homepage, from the sitemap or else the homepage's links; null when there is none. */
export async function samplePage(context: DocumentContext): Promise<string | null> {
  try {
    const { robots } = await loadRobots(context);
    const sitemap = await loadSitemap(context, robots);
    const fromSitemap =
      sitemap.parsed?.ok === true && sitemap.parsed.sitemap.kind === "urlset"
        ? sitemap.parsed.sitemap.entries
            .map((entry) => entry.loc)
            .find((loc) => URL.canParse(loc) && isPageUrl(context, loc))
        : undefined;
    if (fromSitemap !== undefined) return new URL(fromSitemap).href;
  } catch (error) {
    if (!(error instanceof ScanFetchError)) throw error;
  }
  const home = await loadHome(context);
  const anchor = htmlAnchors(home.response.text, home.response.url).find((href) => isPageUrl(context, href));
  return anchor === undefined ? null : new URL(anchor).href.replace(/#.*$/, "");
}

/** The Markdown twin a page advertises (`rel="alternate" type="text/markdown"`, llms.txt v2), or null. */
export function advertisedTwin(response: ScanResponse): string | null {
  return (
    pageLinks(response).find((link) => link.rels.includes("alternate") && isMarkdownMediaType(link.type ?? ""))?.href ??
    null
  );
}

/** A sampled page's HTML answer, or null when it does not answer 2xx or at all (the link checks judge that). */
export async function loadPageHtml(context: DocumentContext, page: string): Promise<ScanResponse | null> {
  try {
    const response = await context.trail.get(page, { accept: ACCEPT_HTML });
    return isSuccess(response) ? response : null;
  } catch (error) {
    if (error instanceof ScanFetchError) return null;
    throw error;
  }
}

/** The Markdown twin the homepage advertises (Link header or `<link rel="alternate" type="text/markdown">`). */
export async function advertisedHomeTwin(context: DocumentContext): Promise<string | null> {
  return advertisedTwin((await loadHome(context)).response);
}

/** A same-site `.md` page that llms.txt lists: the site's own word for where a page's Markdown lives. */
export async function listedTwin(context: DocumentContext, except: string | null): Promise<string | null> {
  try {
    const { llms, document } = await loadLlmsTxt(context);
    const base = document.response.url;
    const urls = (llms?.links ?? []).flatMap((link) => (URL.canParse(link.url, base) ? [new URL(link.url, base)] : []));
    return (
      urls.find((url) => url.origin === context.target.origin && url.pathname.endsWith(".md") && url.href !== except)
        ?.href ?? null
    );
  } catch (error) {
    if (error instanceof ScanFetchError) return null;
    throw error;
  }
}

/**
 * Where a page's Markdown twin may be, most likely first. llms.txt v2 (nbs/index.qmd, Proposal) allows both `.md`
 * appended (`page.html.md`) and the extension replaced (`page.md`), and `index.md` or `index.html.md` for a URL
 * without a file name; `/dir.md` for `/dir/` (v1 practice) is tried first.
 */
export function twinCandidates(page: string): string[] {
  const url = new URL(page);
  url.search = "";
  url.hash = "";
  const at = (pathname: string): string => new URL(pathname, url).href;
  const path = url.pathname;
  if (path === "/") return [at("/index.md"), at("/index.html.md")];
  if (path.endsWith("/"))
    return [at(`${path.replace(/\/+$/, "")}.md`), at(`${path}index.md`), at(`${path}index.html.md`)];
  const extension = /\.[A-Za-z0-9]+$/.exec(path.slice(path.lastIndexOf("/")));
  if (extension === null) return [at(`${path}.md`)];
  return [at(`${path}.md`), at(`${path.slice(0, -extension[0].length)}.md`)];
}

export const ACCEPT_MARKDOWN = "text/markdown";
