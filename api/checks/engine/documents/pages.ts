import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { htmlAnchors, htmlLinks } from "../parse/html.ts";
import { parseLinkHeader } from "../parse/link-header.ts";
import { isMarkdownMediaType } from "../parse/media-type.ts";
import type { DocumentContext } from "./document.ts";
import { loadHome, loadLlmsTxt, loadRobots, loadSitemap } from "./site.ts";

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

/** The Markdown twin a page advertises (Link header or `<link rel="alternate" type="text/markdown">`). */
export async function advertisedHomeTwin(context: DocumentContext): Promise<string | null> {
  const { response } = await loadHome(context);
  const links = [...parseLinkHeader(response.headers.link, response.url), ...htmlLinks(response.text, response.url)];
  return links.find((link) => link.rels.includes("alternate") && isMarkdownMediaType(link.type ?? ""))?.href ?? null;
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

/** `<page>.md`, and `/index.md` for the root (llmstxt.org companion convention). */
export function twinUrl(page: string): string {
  const url = new URL(page);
  url.search = "";
  url.hash = "";
  url.pathname = url.pathname === "/" ? "/index.md" : `${url.pathname.replace(/\/+$/, "")}.md`;
  return url.href;
}

export const ACCEPT_MARKDOWN = "text/markdown";
