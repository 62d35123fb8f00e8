import { type PageFacts, pageFacts, type RenderedOnly, renderedOnly } from "../../render/page-facts.ts";
import { pageOf, type RenderedPage, type RenderedSite } from "../../render/rendered-site.ts";

/** One rendered page beside the HTML the server sends for it, read by the same parsers. */
export interface PageComparison {
  page: RenderedPage;
  server: PageFacts;
  rendered: PageFacts;
  only: RenderedOnly;
}

export function comparePages(site: RenderedSite): PageComparison[] {
  const pages = [pageOf(site, "home"), pageOf(site, "deep")].filter(
    (page): page is RenderedPage => page !== undefined && page.status !== null && page.html !== "",
  );
  return pages.map((page) => {
    const server = pageFacts(page.serverHtml, page.finalUrl);
    const rendered = pageFacts(page.html, page.finalUrl);
    return { page, server, rendered, only: renderedOnly(server, rendered) };
  });
}

const percent = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((100 * part) / whole));

/**
 * What of the page an agent without JavaScript misses, past the noise of small scripted additions (a cookie banner, a
 * year in the footer): a fifth of the words (30 at least), a fifth of the links (5 at least), two headings or every
 * one, or a title or description set by script.
 */
export function missedParts(only: RenderedOnly, rendered: PageFacts): string[] {
  const parts: string[] = [];
  const { words, links, headings } = only;
  if (words.missing >= 30 && percent(words.missing, words.rendered) >= 20)
    parts.push(`${words.missing} of ${words.rendered} words (${percent(words.missing, words.rendered)} %)`);
  if (links.missing.length >= 5 && percent(links.missing.length, links.rendered) >= 20)
    parts.push(`${links.missing.length} of ${links.rendered} links`);
  if (
    headings.missing.length >= 2 ||
    (headings.missing.length > 0 && headings.missing.length === rendered.headings.length)
  )
    parts.push(`${headings.missing.length} of ${headings.rendered} headings ("${headings.missing[0]}"…)`);
  if (only.title !== null) parts.push(`the title ("${only.title.slice(0, 80)}")`);
  if (only.description !== null) parts.push("the description");
  return parts;
}

/** Scripted additions below the threshold, for the passing message. */
export function smallAdditions(only: RenderedOnly): string | null {
  const small = [
    only.words.missing > 0 ? `${only.words.missing} words` : "",
    only.links.missing.length > 0 ? `${only.links.missing.length} link(s)` : "",
    only.headings.missing.length > 0 ? `${only.headings.missing.length} heading(s)` : "",
  ].filter((part) => part !== "");
  return small.length === 0 ? null : small.join(", ");
}
