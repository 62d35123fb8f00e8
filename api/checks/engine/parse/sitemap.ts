/** A sitemap (sitemaps.org 0.9): a `urlset` of pages or a `sitemapindex` of sitemaps. */
export interface Sitemap {
  kind: "urlset" | "sitemapindex";
  entries: Array<{ loc: string; lastmod: string | null }>;
}

export type SitemapParseResult = { ok: true; sitemap: Sitemap } | { ok: false; error: string };

const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";

export function parseSitemap(xml: string): SitemapParseResult {
  const balance = checkTagBalance(xml);
  if (balance !== null) return { ok: false, error: balance };
  const document = xml.replace(/^\uFEFF/, "");
  const start = rootStart(document);
  if (start === null)
    return { ok: false, error: "the prolog never ends: a comment, processing instruction or DOCTYPE is left open" };
  const root = /<(urlset|sitemapindex)\b([^<>]*)>/y;
  root.lastIndex = start;
  const opened = root.exec(document);
  if (opened === null) {
    const other = /<([A-Za-z_][\w:.-]*)/y;
    other.lastIndex = start;
    const name = other.exec(document)?.[1];
    const found = name === undefined ? "there is no root element" : `the root element is <${name}>`;
    return { ok: false, error: `${found}, neither <urlset> nor <sitemapindex>` };
  }
  const [, rootName, attributes = ""] = opened;
  if (!attributes.includes(SITEMAP_NAMESPACE))
    return { ok: false, error: `the root element lacks the ${SITEMAP_NAMESPACE} namespace` };
  const kind = rootName === "urlset" ? "urlset" : "sitemapindex";
  const entries: Sitemap["entries"] = [];
  for (const body of elementBodies(document.slice(start), kind === "urlset" ? "url" : "sitemap")) {
    const loc = elementBodies(body, "loc")[0]?.trim();
    if (loc === undefined) continue;
    entries.push({ loc: unescapeXml(loc), lastmod: elementBodies(body, "lastmod")[0]?.trim() ?? null });
  }
  return { ok: true, sitemap: { kind, entries } };
}

/** XML 1.0 §2.3: the white space characters. */
const XML_SPACE = new Set([" ", "\t", "\r", "\n"]);

/**
 * Where the root element begins: after the prolog, which XML 1.0 §2.8 lets hold, besides the XML declaration, any
 * number of comments, processing instructions (WordPress, Yoast and Rank Math put `<?xml-stylesheet …?>` there) and
 * white space, and one DOCTYPE. Null when one of them is never closed. Forward `indexOf` scans only (linear).
 */
function rootStart(xml: string): number | null {
  let position = 0;
  for (;;) {
    while (XML_SPACE.has(xml.charAt(position))) position += 1;
    let end: number;
    if (xml.startsWith("<?", position)) end = closingEnd(xml, "?>", position + 2);
    else if (xml.startsWith("<!--", position)) end = closingEnd(xml, "-->", position + 4);
    else if (xml.startsWith("<!DOCTYPE", position)) end = doctypeEnd(xml, position);
    else return position;
    if (end === -1) return null;
    position = end;
  }
}

/** Just past the next `close` at or after `from`, or -1. */
function closingEnd(xml: string, close: string, from: number): number {
  const at = xml.indexOf(close, from);
  return at === -1 ? -1 : at + close.length;
}

/** Just past a DOCTYPE, whose internal subset (`[…]`) may itself hold `>` (XML 1.0 §2.8 doctypedecl). */
function doctypeEnd(xml: string, from: number): number {
  const close = xml.indexOf(">", from);
  const subset = xml.indexOf("[", from);
  if (subset === -1 || (close !== -1 && close < subset)) return close === -1 ? -1 : close + 1;
  const subsetEnd = xml.indexOf("]", subset);
  return subsetEnd === -1 ? -1 : closingEnd(xml, ">", subsetEnd);
}

/** Bodies of `<name …>…</name>` elements, found with forward `indexOf` scans (linear in the document). */
function elementBodies(xml: string, name: string): string[] {
  const opening = new RegExp(`<${name}(?:\\s[^<>]*)?>`, "g");
  const bodies: string[] = [];
  for (let match = opening.exec(xml); match !== null; match = opening.exec(xml)) {
    const start = match.index + match[0].length;
    const end = xml.indexOf(`</${name}>`, start);
    if (end === -1) break;
    bodies.push(xml.slice(start, end));
    opening.lastIndex = end;
  }
  return bodies;
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Removes every `open … close` span in one forward pass. */
function removeSpans(text: string, open: string, close: string): string {
  let result = "";
  let position = 0;
  for (;;) {
    const start = text.indexOf(open, position);
    if (start === -1) return result + text.slice(position);
    result += text.slice(position, start);
    const end = text.indexOf(close, start + open.length);
    if (end === -1) return result;
    position = end + close.length;
  }
}

/** Well-formedness in the small: every element closes in order. Returns the first problem, or null. */
export function checkTagBalance(xml: string): string | null {
  const stack: string[] = [];
  let source = removeSpans(xml, "<![CDATA[", "]]>");
  source = removeSpans(source, "<!--", "-->");
  source = removeSpans(source, "<?", "?>");
  source = removeSpans(source, "<!DOCTYPE", ">");
  // Attributes never contain "<" in well-formed XML, so each tag match ends before the next "<" (linear).
  for (const match of source.matchAll(/<(\/?)([A-Za-z_][\w:.-]*)([^<>]*?)(\/?)>/g)) {
    const [, closing, name = "", , selfClosing] = match;
    if (selfClosing === "/") continue;
    if (closing === "/") {
      const open = stack.pop();
      if (open !== name) return `</${name}> closes <${open ?? "nothing"}>`;
    } else {
      stack.push(name);
    }
  }
  return stack.length === 0 ? null : `<${stack[stack.length - 1] ?? ""}> is never closed`;
}
