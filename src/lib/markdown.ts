import type { Element, Root, RootContent } from "hast";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

// Raw HTML in Markdown is dropped (remark-rehype's default), so content can never inject markup.
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype).use(headingIds).use(rehypeStringify);

/** Renders staff-written Markdown to HTML; headings get stable ids so sections can be linked. */
export function renderMarkdown(markdown: string): string {
  return String(processor.processSync(markdown));
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
