import { REFUSED_IN_TEXT } from "../../src/schemas/common.ts";

/**
 * What the staff CLI prints passes through here, and nowhere else (test/scripts/admin-terminal.test.ts
 * holds every command to it). Values come from the database, and rows stored before the API refused
 * them, or written around it, can hold characters a terminal acts on: ESC and CSI start escape
 * sequences (clear the screen, set the title, rewrite what was printed), a lone CR overwrites the
 * line, and bidirectional controls show text in another order than it is. Each is spelled out as
 * `\u001b` instead: visible, and a valid escape inside JSON strings, so `--json` output still parses.
 * The unsafe set is the one the request schemas refuse (src/schemas/common.ts), plus the Unicode
 * line and paragraph separators.
 */
const UNSAFE = new RegExp(`[${REFUSED_IN_TEXT}\\u2028\\u2029]`, "gu");

const spelled = (character: string) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;

/** A value for one line (a table cell): every unsafe character spelled out, line breaks too. */
export function shown(value: string): string {
  return value.replace(UNSAFE, spelled);
}

/** Text of several lines: its line breaks (LF, CRLF) stay, every other unsafe character is spelled out. */
export function safeLines(text: string): string {
  return text.replace(UNSAFE, (character, offset: number, whole: string) =>
    character === "\n" || (character === "\r" && whole[offset + 1] === "\n") ? character : spelled(character),
  );
}

export function say(text: string): void {
  console.log(safeLines(text));
}

export function complain(text: string): void {
  console.error(safeLines(text));
}

/** JSON for scripts: JSON.stringify escapes C0 controls itself, not DEL, C1 or the bidirectional ones. */
export function sayJson(value: unknown): void {
  say(JSON.stringify(value, null, 2));
}

/** A whole document (an export) to stdout, as it is apart from the unsafe characters. */
export function write(text: string): void {
  process.stdout.write(safeLines(text));
}
