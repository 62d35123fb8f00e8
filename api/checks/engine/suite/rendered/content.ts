import { defineCheck, listProblems, notApplicable, pass, warn } from "../../check-types.ts";
import { comparePages, missedParts, smallAdditions } from "./rendered-content.ts";
import { hasHome, NO_JAVASCRIPT_CRAWLERS, pathOf, recordPage, renderedHome } from "./rendered-pages.ts";

const JS_SEO = "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics";
const NOT_SEEN = "agents that do not run JavaScript (GPTBot, ClaudeBot and most fetch tools) do not see it";

export const renderedContent = defineCheck({
  id: "render.content",
  rendered: true,
  title: "What the page shows is in its HTML, not only added by JavaScript",
  category: "content",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  requests: "the homepage and one page it links to, rendered in Chromium, beside their HTML",
  passes:
    "the server's HTML carries the text, links, headings, title and description the rendered page shows; `warn` with how much is missing when a fifth of the words or links, two headings, the title or the description appear only after JavaScript (never a pass for what only JavaScript shows)",
  remediation:
    "Render the page's content on the server (SSR or static generation), so the HTML already holds the text, links, headings, title and description that scripts would add.",
  prompt:
    'Our pages add their main content with client-side JavaScript, so AI crawlers that do not run scripts see an empty page. Render the content, links, headings, <title> and <meta name="description"> on the server (SSR/SSG) and keep client-side code for interaction only.',
  specUrls: [NO_JAVASCRIPT_CRAWLERS, JS_SEO, "https://web.dev/articles/rendering-on-the-web"],
  async run(context) {
    const rendered = await renderedHome(context);
    if (!hasHome(rendered)) return rendered;
    const { site } = rendered;
    const comparisons = comparePages(site);
    const missed: string[] = [];
    const small: string[] = [];
    for (const { page, only, rendered } of comparisons) {
      const parts = missedParts(only, rendered);
      const additions = smallAdditions(only);
      recordPage(
        context,
        site,
        page,
        `${rendered.words} words, ${rendered.links.size} links, ${rendered.headings.length} headings; only after JavaScript: ${parts.length > 0 ? parts.join(", ") : (additions ?? "nothing")}`,
      );
      if (parts.length > 0) missed.push(`on ${pathOf(page)}, ${parts.join(", ")}`);
      else if (additions !== null) small.push(`${additions} on ${pathOf(page)}`);
    }
    if (missed.length > 0)
      return {
        ...warn(`only after JavaScript runs: ${listProblems(missed, 2)}; ${NOT_SEEN}`),
        clauses: [{ keyword: "SHOULD", source: "Google, JavaScript SEO basics", problem: listProblems(missed, 2) }],
      };
    const checked = comparisons.map((comparison) => pathOf(comparison.page)).join(" and ");
    const note = small.length === 0 ? "" : `; small additions by script: ${small.join("; ")}`;
    return pass(`the HTML of ${checked} carries what the rendered page shows${note}`);
  },
});

export const renderedJsonLd = defineCheck({
  id: "render.jsonld",
  rendered: true,
  title: "Structured data (JSON-LD) is in the HTML, not only added by JavaScript",
  category: "content",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  requests: "the homepage and one page it links to, rendered in Chromium, beside their HTML",
  passes:
    "every JSON-LD block and `@type` of the rendered pages is in the server's HTML; `warn` naming the blocks and types scripts add; `n/a` without JSON-LD",
  remediation:
    'Write the JSON-LD into the server\'s HTML (a <script type="application/ld+json"> in the page as served), not from client-side JavaScript.',
  prompt:
    'Our structured data (schema.org JSON-LD) is injected by client-side JavaScript, so crawlers that do not run scripts never see it. Emit the same <script type="application/ld+json"> block in the server-rendered HTML of each page.',
  specUrls: [
    NO_JAVASCRIPT_CRAWLERS,
    "https://developers.google.com/search/docs/appearance/structured-data/generate-structured-data-with-javascript",
    "https://www.w3.org/TR/json-ld11/#embedding-json-ld-in-html-documents",
  ],
  async run(context) {
    const rendered = await renderedHome(context);
    if (!hasHome(rendered)) return rendered;
    const { site } = rendered;
    const comparisons = comparePages(site);
    const added: string[] = [];
    let blocks = 0;
    const types = new Set<string>();
    for (const { page, only, rendered } of comparisons) {
      blocks += rendered.jsonLdBlocks;
      for (const type of rendered.jsonLdTypes) types.add(type);
      const { missingBlocks, missingTypes } = only.jsonLd;
      const what = missingTypes.length > 0 ? ` (${missingTypes.join(", ")})` : "";
      recordPage(
        context,
        site,
        page,
        `${rendered.jsonLdBlocks} JSON-LD block(s) rendered, ${missingBlocks} only after JavaScript${what}`,
      );
      if (missingBlocks > 0 || missingTypes.length > 0)
        added.push(`${Math.max(missingBlocks, 1)} block(s)${what} on ${pathOf(page)}`);
    }
    if (added.length > 0)
      return {
        ...warn(`JSON-LD added by JavaScript: ${listProblems(added, 2)}; ${NOT_SEEN}`),
        clauses: [{ keyword: "SHOULD", source: "Google, structured data with JavaScript", problem: added.join("; ") }],
      };
    if (blocks === 0) return notApplicable("no JSON-LD on the rendered pages");
    return pass(
      `the ${blocks} JSON-LD block(s) of the rendered pages (${[...types].sort().join(", ") || "untyped"}) are in the HTML`,
    );
  },
});
