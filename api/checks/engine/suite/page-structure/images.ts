import { defineCheck, fail, listProblems, notApplicable, pass } from "../../check-types.ts";
import type { Attributes } from "../../parse/html.ts";
import { tags } from "../../parse/html.ts";
import { elementsNamed, renderedMarkup } from "../../parse/html-structure.ts";
import { homeMarkup, NOT_A_PAGE } from "./home-markup.ts";

const HTML_ALT = "https://html.spec.whatwg.org/multipage/images.html#alt";

const hasText = (attributes: Attributes, ...names: string[]): boolean =>
  names.some((name) => (attributes[name] ?? "").trim() !== "");

/** Hidden from the accessibility tree, or marked as decoration: an agent needs no text for it. */
const isHiddenOrDecorative = (attributes: Attributes): boolean =>
  attributes["aria-hidden"] === "true" || ["presentation", "none"].includes(attributes.role?.trim() ?? "");

function imageName(attributes: Attributes): string {
  const source = attributes.src ?? "";
  return `<img src="${source.length > 60 ? `${source.slice(0, 57)}…` : source}">`;
}

interface ImageCount {
  total: number;
  decorative: number;
  problems: string[];
}

function judgeImages(markup: string): ImageCount {
  const count: ImageCount = { total: 0, decorative: 0, problems: [] };
  // HTML §4.8.4.4.10 lets an image whose content is unknown go without alt when a <figcaption> captions it.
  const captioned = new Set(
    elementsNamed(markup, "figure")
      .filter((figure) => /<figcaption\b/i.test(figure.content))
      .flatMap((figure) => tags(figure.content, "img").map((image) => image.src ?? "")),
  );
  for (const image of tags(markup, "img")) {
    count.total += 1;
    if (image.alt === "" || isHiddenOrDecorative(image)) count.decorative += 1;
    else if (
      !("alt" in image) &&
      !hasText(image, "aria-label", "aria-labelledby", "title") &&
      !captioned.has(image.src ?? "")
    )
      count.problems.push(`${imageName(image)} has no alt attribute`);
  }
  for (const svg of elementsNamed(markup, "svg").filter((element) => element.attributes.role === "img")) {
    count.total += 1;
    if (!hasText(svg.attributes, "aria-label", "aria-labelledby") && !/<title\b[^>]*>\s*[^<\s]/i.test(svg.content))
      count.problems.push('an <svg role="img"> has no title or aria-label');
  }
  for (const input of tags(markup, "input").filter((element) => element.type?.toLowerCase() === "image")) {
    count.total += 1;
    if (!hasText(input, "alt", "aria-label", "aria-labelledby", "title"))
      count.problems.push(`an image button (${input.src ?? "no src"}) has no alt`);
  }
  for (const area of tags(markup, "area").filter((element) => element.href !== undefined)) {
    count.total += 1;
    if (!("alt" in area)) count.problems.push(`an <area href="${area.href}"> has no alt`);
  }
  return count;
}

export const imageAlternatives = defineCheck({
  id: "page.img-alt",
  title: "Images on the homepage carry text alternatives agents can read",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    'Give every meaningful image an alt text that says what it shows or does, mark decoration with alt="", and name <svg role="img"> with a <title> or aria-label: agents cannot see images.',
  prompt:
    'Audit the images in our page templates: add alt="…" describing each content image (what it shows, or where a linked image leads), alt="" on purely decorative ones, a <title> inside every <svg role="img">, and alt on <input type="image"> and <area href>.',
  specUrls: [HTML_ALT, "https://www.w3.org/WAI/WCAG22/Understanding/non-text-content.html"],
  requests: "the homepage's markup (already fetched)",
  passes:
    'every `<img>` has `alt` (`alt=""` marks decoration; a captioned figure may go without), every `<svg role="img">` a title or label, every image button and `<area href>` an alt; one missing `fail`s (HTML MUST); no images is `n/a`',
  async run(context) {
    const markup = await homeMarkup(context);
    if (markup === null) return notApplicable(NOT_A_PAGE);
    const images = judgeImages(renderedMarkup(markup));
    if (images.total === 0) return notApplicable("no images on the homepage");
    if (images.problems.length > 0)
      return fail(
        `${images.problems.length} of ${images.total} image(s) without a text alternative (HTML: the alt attribute MUST be specified): ${listProblems(images.problems)}`,
      );
    return pass(`${images.total} image(s), each with a text alternative (${images.decorative} marked decorative)`);
  },
});
