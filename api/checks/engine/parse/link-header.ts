/** One link of an HTTP `Link` header (RFC 8288 §3), its target resolved against the response URL. */
export interface HeaderLink {
  href: string;
  rels: readonly string[];
  type: string | null;
  params: Readonly<Record<string, string>>;
}

/** Splits on commas that are outside `<…>` and quoted strings. */
function splitLinks(value: string): string[] {
  const parts: string[] = [];
  let current = "";
  let inUri = false;
  let inQuote = false;
  for (const char of value) {
    if (char === "<" && !inQuote) inUri = true;
    else if (char === ">" && !inQuote) inUri = false;
    else if (char === '"' && !inUri) inQuote = !inQuote;
    if (char === "," && !inUri && !inQuote) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== "");
}

export function parseLinkHeader(value: string | undefined, base: string): HeaderLink[] {
  if (value === undefined) return [];
  const links: HeaderLink[] = [];
  for (const part of splitLinks(value)) {
    const match = /^<([^>]*)>(.*)$/s.exec(part);
    if (match === null) continue;
    let href: string;
    try {
      href = new URL(match[1] ?? "", base).href;
    } catch {
      continue;
    }
    const params: Record<string, string> = {};
    for (const raw of (match[2] ?? "").split(";")) {
      const separator = raw.indexOf("=");
      if (separator === -1) continue;
      const name = raw.slice(0, separator).trim().toLowerCase();
      const paramValue = raw
        .slice(separator + 1)
        .trim()
        .replace(/^"(.*)"$/s, "$1");
      if (name !== "" && !(name in params)) params[name] = paramValue;
    }
    const rels = (params.rel ?? "")
      .toLowerCase()
      .split(/\s+/)
      .filter((rel) => rel !== "");
    links.push({ href, rels, type: params.type?.toLowerCase() ?? null, params });
  }
  return links;
}

/** Link relations agents use to find machine-readable surfaces (RFC 8631, RFC 9727, ARD, llms.txt conventions). */
export const AGENT_LINK_RELATIONS: ReadonlySet<string> = new Set([
  "api-catalog",
  "service-desc",
  "service-doc",
  "service-meta",
  "status",
  "describedby",
  "llms.txt",
  "llms-full.txt",
  "ai-catalog",
  "ard",
  "markdown",
]);

/** An agent-useful link: one of the relations above, or a Markdown alternate. */
export function isAgentLink(link: Pick<HeaderLink, "rels" | "type">): boolean {
  return (
    link.rels.some((rel) => AGENT_LINK_RELATIONS.has(rel)) ||
    (link.rels.includes("alternate") && /^text\/(x-)?markdown/.test(link.type ?? ""))
  );
}
