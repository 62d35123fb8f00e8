import { defineCheck, fail, notApplicable, pass, warn } from "../../check-types.ts";
import { landmarks } from "../../parse/html-structure.ts";
import { homeMarkup, NOT_A_PAGE } from "./home-markup.ts";

const HTML_MAIN = "https://html.spec.whatwg.org/multipage/grouping-content.html#the-main-element";

export const semanticLandmarks = defineCheck({
  id: "page.semantic",
  title: "The homepage marks its regions with semantic HTML (one main, header, nav, footer)",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Wrap the page's own content in one <main>, site navigation in <nav>, and the page header and footer in <header> and <footer>, instead of generic <div>s: agents find the content by these landmarks.",
  prompt:
    'Make our page templates semantic: exactly one <main> around the page\'s own content, <nav> for menus, <header> and <footer> for the site chrome, <article>/<section> for content blocks; replace the <div class="header|nav|main|footer"> wrappers.',
  specUrls: [HTML_MAIN, "https://www.w3.org/WAI/ARIA/apg/practices/landmark-regions/"],
  requests: "the homepage's markup (already fetched)",
  passes:
    "one visible `<main>` with a header, nav or footer; two visible mains `fail` (HTML: MUST NOT); no main, or a main alone, is `warn`",
  async run(context) {
    const markup = await homeMarkup(context);
    if (markup === null) return notApplicable(NOT_A_PAGE);
    const found = landmarks(markup);
    if (found.main > 1)
      return fail(`${found.main} visible main landmarks (HTML: a document MUST NOT have more than one visible main)`);
    const chrome = [
      found.banner > 0 ? "header" : null,
      found.navigation > 0 ? "nav" : null,
      found.contentinfo > 0 ? "footer" : null,
    ].filter((name) => name !== null);
    if (found.main === 0)
      return warn(
        `no <main> (a page SHOULD have one main landmark, axe landmark-one-main), so agents cannot tell content from chrome${chrome.length > 0 ? `; found ${chrome.join(", ")}` : ""}`,
      );
    if (chrome.length === 0)
      return warn("a <main>, but no header, nav or footer: the rest of the page SHOULD sit in landmarks (axe region)");
    return pass(`one main landmark, with ${chrome.join(", ")}`);
  },
});
