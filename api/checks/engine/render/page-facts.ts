import { htmlAnchors, htmlMeta, htmlTitle, visibleText } from "../parse/html.ts";
import { headingOutline } from "../parse/html-structure.ts";
import { nodeTypes, readJsonLd } from "../parse/json-ld.ts";

/**
 * What an agent reads from one page, taken the same way from the HTML the server sent and from the DOM Chromium built,
 * so the two can be compared word for word: the same parsers read both (parse/html.ts).
 */
export interface PageFacts {
  words: number;
  /** Distinct http(s) link targets, fragments removed unless they are hash routes. */
  links: ReadonlySet<string>;
  headings: readonly string[];
  title: string | null;
  description: string | null;
  /** JSON-LD blocks, and the `@type` of every node in them. */
  jsonLdBlocks: number;
  jsonLdTypes: ReadonlySet<string>;
}

/** A hash route with a path of its own (`#/quickstart`); `#/?id=…` is docsify's anchor within the page. */
export const HASH_ROUTE = /^#!?\/[^?#]/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

function countWords(text: string): number {
  let count = 0;
  for (const _ of text.matchAll(WORD)) count += 1;
  return count;
}

function linkTargets(html: string, base: string): Set<string> {
  const targets = new Set<string>();
  for (const href of htmlAnchors(html, base)) {
    const url = new URL(href);
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    // A fragment is a place in the page, except a hash route (`#/guide`, `#!/guide`): a page of a hash-routed app.
    if (!HASH_ROUTE.test(url.hash)) url.hash = "";
    targets.add(url.href);
  }
  return targets;
}

export function pageFacts(html: string, base: string): PageFacts {
  const jsonLd = readJsonLd(html);
  const description = (htmlMeta(html).get("description")?.[0] ?? "").trim();
  return {
    words: countWords(visibleText(html)),
    links: linkTargets(html, base),
    headings: headingOutline(html)
      .map((heading) => heading.text)
      .filter((text) => text !== ""),
    title: htmlTitle(html),
    description: description === "" ? null : description,
    jsonLdBlocks: jsonLd.blocks,
    jsonLdTypes: new Set(jsonLd.nodes.flatMap(nodeTypes)),
  };
}

/** What the rendered page shows that the server's HTML does not: what an agent that runs no JavaScript misses. */
export interface RenderedOnly {
  /** Words the rendered page has beyond the HTML's, and the rendered total. */
  words: { missing: number; rendered: number };
  links: { missing: readonly string[]; rendered: number };
  headings: { missing: readonly string[]; rendered: number };
  /** The rendered title or description, when the HTML has none or a different one. */
  title: string | null;
  description: string | null;
  jsonLd: { missingBlocks: number; missingTypes: readonly string[] };
}

const normalise = (text: string | null): string => (text ?? "").replace(/\s+/g, " ").trim();

export function renderedOnly(server: PageFacts, rendered: PageFacts): RenderedOnly {
  const serverHeadings = new Set(server.headings.map(normalise));
  return {
    words: { missing: Math.max(0, rendered.words - server.words), rendered: rendered.words },
    links: { missing: [...rendered.links].filter((link) => !server.links.has(link)), rendered: rendered.links.size },
    headings: {
      missing: rendered.headings.filter((heading) => !serverHeadings.has(normalise(heading))),
      rendered: rendered.headings.length,
    },
    title: rendered.title !== null && normalise(rendered.title) !== normalise(server.title) ? rendered.title : null,
    description:
      rendered.description !== null && normalise(rendered.description) !== normalise(server.description)
        ? rendered.description
        : null,
    jsonLd: {
      missingBlocks: Math.max(0, rendered.jsonLdBlocks - server.jsonLdBlocks),
      missingTypes: [...rendered.jsonLdTypes].filter((type) => !server.jsonLdTypes.has(type)).sort(),
    },
  };
}
