import type { Element, Root, RootContent } from "hast";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

/** A section heading of a rendered page, for its on-page contents list. */
export interface PageHeading {
  /** 2 or 3: the contents list shows sections and their subsections. */
  depth: number;
  id: string;
  text: string;
}

export interface RenderedMarkdown {
  html: string;
  headings: PageHeading[];
}

// Raw HTML in Markdown is dropped (remark-rehype's default), so content can never inject markup.
const processor = unified()
  .use(remarkParse)
  .use(remarkGfm)
  .use(remarkRehype)
  .use(headingIds)
  .use(scrollableRegions)
  .use(rehypeStringify);

/** Renders staff-written Markdown to HTML; headings get stable ids so sections can be linked. */
export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown));
}

/**
 * Where a build leaves the doc pages it renders ahead in worker threads (src/build/markdown-ahead.ts).
 * A global, because the pages run from Astro's bundle, which has its own copy of this module, in the
 * same process as the build that started the workers.
 */
export const RENDERED_AHEAD = Symbol.for("agent-service.rendered-markdown-ahead");

export interface RenderedAhead {
  /** The rendering of this Markdown, handed over once (and then forgotten); undefined if not rendered ahead. */
  take(markdown: string): Promise<RenderedMarkdown> | undefined;
}

/**
 * A doc page's Markdown, rendered: taken from the build's workers when they have it (or will soon),
 * else rendered here. Parsing Markdown was 5.5 s of the 2,000-page benchmark build's 13–19 s of page
 * rendering (`npm run bench -- build`, ≤ 40 s); the workers do it on the other core meanwhile.
 */
export function pageMarkdown(markdown: string): Promise<RenderedMarkdown> | RenderedMarkdown {
  const ahead = (globalThis as { [RENDERED_AHEAD]?: RenderedAhead })[RENDERED_AHEAD];
  return ahead?.take(markdown) ?? renderMarkdownPage(markdown);
}

/** Renders Markdown and lists its `h2` and `h3` headings in order, with their ids. */
export function renderMarkdownPage(markdown: string): RenderedMarkdown {
  const tree = processor.runSync(processor.parse(markdown));
  const headings: PageHeading[] = [];
  visitElements(tree.children, (element) => {
    const depth = /^h([23])$/.exec(element.tagName)?.[1];
    if (depth) headings.push({ depth: Number(depth), id: String(element.properties.id), text: textOf(element).trim() });
  });
  return { html: processor.stringify(tree), headings };
}

export function slugifyHeading(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-")
    .replace(/-+/g, "-");
}

function headingIds() {
  return (tree: Root) => {
    const used = new Map<string, number>();
    visitElements(tree.children, (element) => {
      if (!/^h[2-4]$/.test(element.tagName) || element.properties.id) return;
      const base = slugifyHeading(textOf(element)) || "section";
      const count = used.get(base) ?? 0;
      used.set(base, count + 1);
      element.properties.id = count === 0 ? base : `${base}-${count}`;
    });
  };
}

/**
 * Wraps each table in a focusable, labelled region that scrolls sideways, so a wide table neither
 * breaks words to fit nor widens the page, and a keyboard user can scroll it (axe's
 * `scrollable-region-focusable`). The label names the section the table sits in.
 */
function scrollableRegions() {
  return (tree: Root) => {
    let section = "";
    const labels = new Map<string, number>();
    const wrap = (nodes: RootContent[]) => {
      nodes.forEach((node, index) => {
        if (node.type !== "element") return;
        if (/^h[1-6]$/.test(node.tagName)) section = textOf(node).trim();
        // A long code line scrolls too; focusable, a keyboard can scroll it (Expressive Code does the same).
        if (node.tagName === "pre") node.properties.tabIndex = 0;
        if (node.tagName !== "table") {
          wrap(node.children);
          return;
        }
        const base = section ? `Table: ${section}` : "Table";
        const count = (labels.get(base) ?? 0) + 1;
        labels.set(base, count);
        nodes[index] = {
          type: "element",
          tagName: "div",
          properties: {
            className: ["table-scroll"],
            role: "region",
            tabIndex: 0,
            ariaLabel: count === 1 ? base : `${base} (${count})`,
          },
          children: [node],
        };
      });
    };
    wrap(tree.children);
  };
}

function visitElements(nodes: RootContent[], visit: (element: Element) => void): void {
  for (const node of nodes) {
    if (node.type !== "element") continue;
    visit(node);
    visitElements(node.children, visit);
  }
}

function textOf(node: RootContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/** The first paragraph's plain text, for summaries. */
export function firstParagraph(markdown: string): string {
  const paragraph = markdown
    .split(/\n\s*\n/)
    .find((block) => block.trim() && !/^\s*(#|```|\||-|\*|>|\d+\.)/.test(block));
  return (paragraph ?? "").replace(/\s+/g, " ").trim();
}
