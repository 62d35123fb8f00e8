/**
 * Text a checked site wrote (a robots.txt line, a header value, a document's title) is untrusted wherever it is
 * quoted: a terminal runs its escape sequences (an OSC sequence retitles the window), a SARIF viewer and a Markdown
 * renderer turn its syntax into links and HTML, bidi controls reorder what a reader sees (Trojan Source,
 * CVE-2021-42574), and a hostile site makes it as long as it likes. This module is the one place that makes such text
 * inert: the engine quotes site text with it where the text enters a finding, and each output (the CLI, SARIF,
 * Markdown, JUnit, e-mail) applies it again with its own syntax's escaping on top, so a report stored before a rule
 * was added is inert too.
 */

/** The most characters of one quoted value: enough to recognise it, too few to flood a report. */
export const QUOTE_LIMIT = 200;
/** The most characters of one finding's message, quotes and prose together. */
export const MESSAGE_LIMIT = 1_000;

/**
 * Controls (C0, DEL, C1), format characters (bidi embeddings, overrides and isolates, zero-width characters, the BOM,
 * tag characters) and the line and paragraph separators: none is visible, each can change what a reader or a
 * terminal does with the text around it.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
/** The same, but line breaks and tabs stay: for text shown as a block (a response excerpt). */
const INVISIBLE_IN_BLOCK = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** `\u001B`, `\u202E`, `\u{E0041}`: the character spelled out, so a reader sees that it was there. */
function spell(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code > 0xffff
    ? `\\u{${code.toString(16).toUpperCase()}}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** One line with every invisible character spelled out, and any lone surrogate replaced (U+FFFD). */
export function inertLine(text: string): string {
  return text.toWellFormed().replace(INVISIBLE, spell);
}

/** Like `inertLine`, but line breaks and tabs are kept: for a multi-line excerpt of a response. */
export function inertBlock(text: string): string {
  return text.toWellFormed().replace(INVISIBLE_IN_BLOCK, spell);
}

/** At most `limit` characters (code points, so no pair is split), with `…` where the rest was cut. */
export function truncate(text: string, limit: number): string {
  const characters = Array.from(text);
  return characters.length <= limit ? text : `${characters.slice(0, limit).join("")}…`;
}

/**
 * A value the site wrote, as a finding quotes it: cut to `limit` characters, in double quotes with `"` and `\` escaped
 * inside (so the quote cannot be closed early), every invisible character spelled out. Outputs that render markup
 * recognise these quotes (see `markdownInline`).
 */
export function quoteSiteText(text: string, limit = QUOTE_LIMIT): string {
  return `"${inertLine(truncate(text, limit).replace(/["\\]/g, "\\$&"))}"`;
}

/** A finding's whole message as it is stored and shown: one inert line of at most MESSAGE_LIMIT characters. */
export function boundedMessage(text: string, limit = MESSAGE_LIMIT): string {
  return truncate(inertLine(text), limit);
}

/**
 * SARIF 2.1.0 §3.11.5: in a plain-text message `[text](target)` is an embedded link a viewer renders, so `[`, `]`
 * and `\` are escaped with `\`.
 */
export function sarifText(text: string): string {
  return inertLine(text).replace(/[[\]\\]/g, "\\$&");
}

/** A run of backticks longer than any in `text` and at least `minimum` long: a code span's or block's fence. */
export function backtickFence(text: string, minimum = 1): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (match) => match[0].length));
  return "`".repeat(Math.max(minimum, longest + 1));
}

/**
 * A CommonMark code span: delimited by a backtick run longer than any inside, padded with a space when the text
 * starts or ends with a backtick or a space (CommonMark strips one such space from each side). Nothing inside is
 * markup: no link, no HTML, no emphasis.
 */
export function markdownCode(text: string): string {
  const inert = inertLine(text);
  const fence = backtickFence(inert);
  const pad = /^[` ]|[` ]$/.test(inert) ? " " : "";
  return `${fence}${pad}${inert}${pad}${fence}`;
}

/** Characters that start inline markup in CommonMark: code, emphasis, links and images, HTML, entities. */
const INLINE_MARKUP = /[\\`*[\]<>&]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;
/** What makes a line a heading, quote, list item or thematic break when it starts a paragraph. */
const BLOCK_START = /^(\s*)(?:([#>+=-])|(\d+)([.)]))/;
/** A value quoted by `quoteSiteText` (or a double-quoted name in our own prose). */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;

function escapeMarkdown(text: string): string {
  return text.replace(INLINE_MARKUP, "\\$&");
}

/**
 * A finding's message as Markdown that renders as the text it is: every quoted value in a code span, and the prose
 * around it with its markup characters escaped, so neither a value the site wrote nor anything else in the message
 * becomes a link, an image, HTML or a heading.
 */
export function markdownInline(text: string): string {
  const inert = inertLine(text);
  let out = "";
  let last = 0;
  for (const match of inert.matchAll(QUOTED)) {
    out += escapeMarkdown(inert.slice(last, match.index)) + markdownCode(match[0]);
    last = match.index + match[0].length;
  }
  out += escapeMarkdown(inert.slice(last));
  return out.replace(
    BLOCK_START,
    (_whole, space: string, marker: string | undefined, digits: string | undefined, dot: string | undefined) =>
      marker === undefined ? `${space}${digits ?? ""}\\${dot ?? ""}` : `${space}\\${marker}`,
  );
}
