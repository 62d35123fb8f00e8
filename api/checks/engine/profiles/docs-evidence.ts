import { loadApiCatalog } from "../documents/catalogs.ts";
import type { DocumentContext } from "../documents/document.ts";
import { loadHome, loadRobots, loadSitemap } from "../documents/site.ts";
import { ignoreScanFailure } from "../fetch/scan-fetch-error.ts";
import { htmlAnchors, htmlMeta } from "../parse/html.ts";
import { parseLinkHeader } from "../parse/link-header.ts";
import { linksetTargets } from "../remote/linkset.ts";

/** Generators whose output is a documentation site (their `<meta name="generator">`). */
const DOCS_GENERATORS =
  /\b(docusaurus|starlight|mkdocs|sphinx|vitepress|vuepress|nextra|mintlify|gitbook|docsify|antora|docfx|typedoc|rustdoc|javadoc|fumadocs|just-the-docs|docsy|read the docs|redocly|readme\.io)\b/i;
/** First path segments under which sites keep their documentation. */
const DOCS_SECTIONS = new Set([
  "docs",
  "doc",
  "documentation",
  "reference",
  "api-reference",
  "guides",
  "guide",
  "manual",
  "handbook",
]);
const DOCS_HOST = /^(docs|doc|documentation|developer|developers|devdocs)\./i;
const MIN_DOC_PAGES = 3;

/**
 * Why the site needs the checks for documentation sites, or null: a docs host name, a documentation generator, a
 * `service-doc` link (RFC 8631), or at least three pages under a docs section among the homepage's links and the
 * sitemap. Never llms.txt or Markdown alone: every site can publish those, and a blog that does is still a blog
 * (DESIGN §8).
 */
export async function documentationEvidence(context: DocumentContext): Promise<string | null> {
  const { root } = context.target;
  if (DOCS_HOST.test(root.hostname)) return `the host name ${root.hostname}`;
  const home = await loadHome(context);
  const generator = (htmlMeta(home.response.text).get("generator") ?? []).find((value) => DOCS_GENERATORS.test(value));
  if (generator !== undefined) return `a documentation generator (${generator})`;
  const serviceDoc = parseLinkHeader(home.response.headers.link, home.response.url).some((link) =>
    link.rels.includes("service-doc"),
  );
  if (serviceDoc) return 'a Link rel="service-doc" on /';
  const linkset = (await loadApiCatalog(context).catch(ignoreScanFailure))?.linkset ?? null;
  if (linkset !== null && linksetTargets(linkset, "service-doc").length > 0) return "a service-doc in the api-catalog";
  const pages = new Set([...htmlAnchors(home.response.text, home.response.url), ...(await sitemapUrls(context))]);
  const docPages = [...pages].filter((url) => {
    if (!URL.canParse(url)) return false;
    const parsed = new URL(url);
    const section = parsed.pathname.split("/")[1]?.toLowerCase() ?? "";
    return (
      parsed.origin === context.target.origin &&
      DOCS_SECTIONS.has(section) &&
      parsed.pathname.length > section.length + 2
    );
  });
  const sections = new Set(docPages.map((url) => new URL(url).pathname.split("/")[1]));
  return docPages.length >= MIN_DOC_PAGES
    ? `${docPages.length} pages under /${[...sections].join(", /")}/ in the homepage's links and the sitemap`
    : null;
}

async function sitemapUrls(context: DocumentContext): Promise<string[]> {
  const read = async () => {
    const { robots } = await loadRobots(context);
    const sitemap = await loadSitemap(context, robots);
    return sitemap.parsed?.ok === true ? sitemap.parsed.sitemap.entries.map((entry) => entry.loc) : [];
  };
  return (await read().catch(ignoreScanFailure)) ?? [];
}
