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
  const root = /^\s*(?:<\?xml[^<>]*\?>\s*)?(?:<!--(?:[^-]|-(?!->))*-->\s*)*<(urlset|sitemapindex)\b([^<>]*)>/.exec(
    xml.replace(/^\uFEFF/, ""),
  );
  if (root === null) return { ok: false, error: "the root element is neither <urlset> nor <sitemapindex>" };
  if (!(root[2] ?? "").includes(SITEMAP_NAMESPACE))
    return { ok: false, error: `the root element lacks the ${SITEMAP_NAMESPACE} namespace` };
  const kind = root[1] === "urlset" ? "urlset" : "sitemapindex";
  const entries: Sitemap["entries"] = [];
  for (const body of elementBodies(xml, kind === "urlset" ? "url" : "sitemap")) {
    const loc = elementBodies(body, "loc")[0]?.trim();
    if (loc === undefined) continue;
    entries.push({ loc: unescapeXml(loc), lastmod: elementBodies(body, "lastmod")[0]?.trim() ?? null });
  }
  return { ok: true, sitemap: { kind, entries } };
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
