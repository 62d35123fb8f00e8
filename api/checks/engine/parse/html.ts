/**
 * Just enough HTML reading for the checks: head elements, JSON-LD blocks and visible text. Every pass is linear in the
 * size of the page: the markup comes from the site being checked, and a page built to make a backtracking regular
 * expression run for minutes must not stall the scanner. Hence `indexOf` loops for element bodies, and tag patterns
 * that stop at the next `<`.
 */
export type Attributes = Readonly<Record<string, string>>;

const ATTRIBUTE_PATTERN = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

export function parseAttributes(source: string): Attributes {
  const attributes: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE_PATTERN)) {
    const name = match[1]?.toLowerCase();
    if (name === undefined || name in attributes) continue;
    attributes[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "");
  }
  return attributes;
}

/** Opening tags; quoted values may hold `>` but never `<`, so a broken tag ends at the next `<`. */
export function tagPattern(name: string): RegExp {
  return new RegExp(`<${name}\\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>`, "gi");
}

export function tags(html: string, name: string): Attributes[] {
  return Array.from(withoutComments(html).matchAll(tagPattern(name)), (match) => parseAttributes(match[1] ?? ""));
}

/** Removes every `open … close` span in one forward pass; an unclosed span runs to the end. */
function removeSpans(text: string, open: string, close: string): string {
  const lower = text.toLowerCase();
  let result = "";
  let position = 0;
  for (;;) {
    const start = lower.indexOf(open, position);
    if (start === -1) return result + text.slice(position);
    result += `${text.slice(position, start)} `;
    const end = lower.indexOf(close, start + open.length);
    if (end === -1) return result;
    position = end + close.length;
  }
}

export function withoutComments(html: string): string {
  return removeSpans(html, "<!--", "-->");
}

/** Removes the named elements with their content (`<script>…</script>`), in one forward pass. */
export function withoutElements(html: string, names: readonly string[]): string {
  const lower = html.toLowerCase();
  const opening = new RegExp(`<(${names.join("|")})\\b`, "gi");
  let result = "";
  let position = 0;
  for (let match = opening.exec(html); match !== null; match = opening.exec(html)) {
    if (match.index < position) continue;
    result += `${html.slice(position, match.index)} `;
    const close = lower.indexOf(`</${(match[1] ?? "").toLowerCase()}`, opening.lastIndex);
    const end = close === -1 ? -1 : lower.indexOf(">", close);
    position = end === -1 ? html.length : end + 1;
    opening.lastIndex = position;
  }
  return result + html.slice(position);
}

/** The content of the first `<name …>…</name>`, or null. */
function elementContent(html: string, name: string): string | null {
  const open = tagPattern(name).exec(html);
  if (open === null) return null;
  const start = open.index + open[0].length;
  const end = html.toLowerCase().indexOf(`</${name}`, start);
  return html.slice(start, end === -1 ? html.length : end);
}

export interface HtmlLink {
  rels: readonly string[];
  href: string;
  type: string | null;
}

/** `<link>` elements, hrefs resolved against `base`. */
export function htmlLinks(html: string, base: string): HtmlLink[] {
  const links: HtmlLink[] = [];
  for (const attributes of tags(html, "link")) {
    const href = attributes.href;
    if (href === undefined || !URL.canParse(href, base)) continue;
    links.push({
      rels: (attributes.rel ?? "")
        .toLowerCase()
        .split(/\s+/)
        .filter((rel) => rel !== ""),
      href: new URL(href, base).href,
      type: attributes.type?.toLowerCase() ?? null,
    });
  }
  return links;
}

/** `<meta name|property|http-equiv content>` values by lower-case key. */
export function htmlMeta(html: string): Map<string, string[]> {
  const meta = new Map<string, string[]>();
  for (const attributes of tags(html, "meta")) {
    const key = (attributes.name ?? attributes.property ?? attributes["http-equiv"])?.toLowerCase();
    const content = attributes.content;
    if (key === undefined || content === undefined) continue;
    meta.set(key, [...(meta.get(key) ?? []), content]);
  }
  return meta;
}

export function htmlLang(html: string): string | null {
  const lang = tags(html, "html")[0]?.lang?.trim();
  return lang === undefined || lang === "" ? null : lang;
}

export function htmlTitle(html: string): string | null {
  const title = decodeEntities(elementContent(withoutComments(html), "title") ?? "").trim();
  return title === "" ? null : title;
}

/** Raw bodies of `<script type="application/ld+json">` blocks. */
export function jsonLdBlocks(html: string): string[] {
  const source = withoutComments(html);
  const lower = source.toLowerCase();
  const blocks: string[] = [];
  const opening = tagPattern("script");
  for (let match = opening.exec(source); match !== null; match = opening.exec(source)) {
    const start = match.index + match[0].length;
    const end = lower.indexOf("</script", start);
    if (
      parseAttributes(match[1] ?? "")
        .type?.toLowerCase()
        .trim() === "application/ld+json"
    )
      blocks.push(source.slice(start, end === -1 ? source.length : end));
    if (end === -1) break;
    opening.lastIndex = end;
  }
  return blocks;
}

/** Anchors' hrefs, resolved. */
export function htmlAnchors(html: string, base: string): string[] {
  return tags(html, "a").flatMap((attributes) => {
    const href = attributes.href;
    return href !== undefined && URL.canParse(href, base) ? [new URL(href, base).href] : [];
  });
}

const INVISIBLE_ELEMENTS = ["script", "style", "noscript", "template", "svg", "iframe"];
const CHROME_ELEMENTS = ["nav", "header", "footer", "aside"];

/** The text a reader would see; with `mainOnly`, navigation and page chrome are left out as well. */
export function visibleText(html: string, options: { mainOnly?: boolean } = {}): string {
  const cleaned = withoutElements(withoutComments(html), INVISIBLE_ELEMENTS);
  let source = elementContent(cleaned, "body") ?? cleaned;
  if (options.mainOnly === true) source = withoutElements(elementContent(source, "main") ?? source, CHROME_ELEMENTS);
  return decodeEntities(source.replace(/<[^<>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{1,10});/gi, (whole, entity: string) => {
    if (entity.startsWith("#x") || entity.startsWith("#X"))
      return safeCodePoint(Number.parseInt(entity.slice(2), 16), whole);
    if (entity.startsWith("#")) return safeCodePoint(Number.parseInt(entity.slice(1), 10), whole);
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function safeCodePoint(value: number, fallback: string): string {
  return Number.isInteger(value) && value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : fallback;
}
