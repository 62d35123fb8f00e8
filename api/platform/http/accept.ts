/** The q-value a client gives a media type in its Accept header (0 when not acceptable). */
function qualityOf(accept: string, type: string): number {
  const [major] = type.split("/");
  let best = -1;
  let bestSpecificity = -1;
  for (const part of accept.split(",")) {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity < 0 || specificity < bestSpecificity) continue;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    const value = q ? Number.parseFloat(q.slice(2)) : 1;
    best = Number.isFinite(value) ? value : 0;
    bestSpecificity = specificity;
  }
  return Math.max(best, 0);
}

/**
 * True when the client asks for Markdown more than for HTML: `Accept: text/markdown`, or
 * `text/markdown, text/html;q=0.9`. A browser's `text/html,…,*\/*;q=0.8` keeps HTML.
 */
export function prefersMarkdown(accept: string | null): boolean {
  if (!accept?.includes("markdown")) return false;
  const markdown = Math.max(qualityOf(accept, "text/markdown"), qualityOf(accept, "text/x-markdown"));
  return markdown > 0 && markdown >= qualityOf(accept, "text/html");
}

/**
 * True when the client names `type` and asks for it at least as much as for plain JSON: `Accept: application/sarif+json`,
 * or `application/sarif+json, application/json;q=0.5`. A `*\/*` alone keeps JSON, the default representation.
 */
export function prefersJsonVariant(accept: string | null, type: string): boolean {
  if (!accept?.toLowerCase().includes(type)) return false;
  const wanted = qualityOf(accept, type);
  return wanted > 0 && wanted >= qualityOf(accept, "application/json");
}
