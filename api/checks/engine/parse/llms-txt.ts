/** An llms.txt read per llmstxt.org: H1 title, blockquote summary, H2 sections of link lists. */
export interface LlmsLink {
  text: string;
  url: string;
  section: string | null;
  inList: boolean;
}

export interface LlmsTxt {
  title: string | null;
  h1Count: number;
  /** The first non-blank line is the H1, as the format requires. */
  startsWithH1: boolean;
  hasSummary: boolean;
  sections: string[];
  links: LlmsLink[];
  chars: number;
}

// Neither part can run past the next "[" or quote, so a hostile line cannot make matching quadratic.
const LINK_PATTERN = /\[([^[\]\n]+)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"\n)]*")?\s*\)/g;

export function parseLlmsTxt(text: string): LlmsTxt {
  const result: LlmsTxt = {
    title: null,
    h1Count: 0,
    startsWithH1: false,
    hasSummary: false,
    sections: [],
    links: [],
    chars: text.length,
  };
  let seenContent = false;
  let inFence = false;
  let section: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const trimmed = line.trim();
    if (trimmed === "") continue;
    const h1 = /^#\s+(.+)$/.exec(trimmed);
    if (h1 !== null) {
      result.h1Count += 1;
      result.title ??= (h1[1] ?? "").trim();
      if (!seenContent) result.startsWithH1 = true;
    }
    const h2 = /^##\s+(.+)$/.exec(trimmed);
    if (h2 !== null) {
      section = (h2[1] ?? "").trim();
      result.sections.push(section);
    }
    if (/^>\s?\S/.test(trimmed) && result.sections.length === 0) result.hasSummary = true;
    const inList = /^[-*+]\s/.test(trimmed);
    for (const match of trimmed.matchAll(LINK_PATTERN)) {
      result.links.push({ text: (match[1] ?? "").trim(), url: match[2] ?? "", section, inList });
    }
    seenContent = true;
  }
  return result;
}
