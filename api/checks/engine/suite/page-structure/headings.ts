import { defineCheck, judge, listProblems, notApplicable, warn } from "../../check-types.ts";
import { type Heading, headingOutline } from "../../parse/html-structure.ts";
import { homeMarkup, NOT_A_PAGE } from "./home-markup.ts";

const HTML_HEADINGS = "https://html.spec.whatwg.org/multipage/sections.html#headings-and-outlines-2";

/** HTML §4.3.11: each heading "must have a heading level that is less than, equal to, or 1 greater than" the last. */
function skippedLevels(outline: readonly Heading[]): string[] {
  const skips: string[] = [];
  outline.forEach((heading, index) => {
    const previous = outline[index - 1];
    if (previous !== undefined && heading.level > previous.level + 1)
      skips.push(`h${previous.level} → h${heading.level} at "${heading.text.slice(0, 40) || "(empty)"}"`);
  });
  return skips;
}

export const headings = defineCheck({
  id: "page.headings",
  title: "The homepage's headings form an outline: an h1, no skipped levels",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Give the page one h1 naming it, and nest the rest without skipping a level (h1 → h2 → h3); agents outline a page by its headings.",
  prompt:
    "Fix the heading structure of our pages: one <h1> with the page's title, then <h2> for sections and <h3> inside them, never skipping a level (no h2 → h4), and no empty headings. Change the element, not just its styling.",
  specUrls: [HTML_HEADINGS, "https://www.w3.org/WAI/WCAG22/Techniques/html/H42"],
  requests: "the homepage's markup (already fetched)",
  passes:
    "no skipped heading level (HTML \u00a74.3.11 MUST, else `fail`); an h1 (SHOULD) and no empty or missing headings, else `warn`; several h1 are conforming HTML and only noted",
  async run(context) {
    const markup = await homeMarkup(context);
    if (markup === null) return notApplicable(NOT_A_PAGE);
    const outline = headingOutline(markup);
    if (outline.length === 0) return warn("the homepage has no headings, so agents cannot outline it");
    const skips = skippedLevels(outline);
    const problems =
      skips.length === 0
        ? []
        : [
            `heading levels skipped (HTML: a heading MUST be at most one level below the one before): ${listProblems(skips)}`,
          ];
    const cautions: string[] = [];
    const topLevel = outline.filter((heading) => heading.level === 1);
    if (topLevel.length === 0)
      cautions.push(
        `no h1 (HTML: at least one heading SHOULD have level 1); the outline starts at h${outline[0]?.level}`,
      );
    const empty = outline.filter((heading) => heading.text === "").length;
    if (empty > 0) cautions.push(`${empty} empty heading(s) that agents read as nothing`);
    const notes =
      topLevel.length > 1 ? [`${topLevel.length} h1 elements (conforming HTML, but one h1 names the page best)`] : [];
    return judge(
      { problems, cautions, notes },
      `${outline.length} headings from "${topLevel[0]?.text.slice(0, 60)}", no level skipped`,
    );
  },
});
