import { describe, expect, it } from "vitest";
import {
  boundedMessage,
  inertBlock,
  inertLine,
  markdownCode,
  markdownInline,
  QUOTE_LIMIT,
  quoteSiteText,
  sarifText,
} from "../../src/lib/site-text.ts";

const ESC = "\u001b";
const BEL = "\u0007";
/** An OSC 0 sequence: sets a terminal's title. */
const OSC_TITLE = `${ESC}]0;pwned${BEL}`;
const RLO = "\u202e";

describe("quoting what a checked site wrote", () => {
  it("spells out controls and bidi characters instead of passing them on", () => {
    const quoted = quoteSiteText(`a${OSC_TITLE}b${RLO}txt.exe`);
    expect(quoted).toBe('"a\\u001B]0;pwned\\u0007b\\u202Etxt.exe"');
    expect(quoted).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it("keeps the quote closed: a double quote or a backslash inside is escaped", () => {
    expect(quoteSiteText('x" onerror="alert(1)\\')).toBe('"x\\" onerror=\\"alert(1)\\\\"');
  });

  it("cuts a long value at about 200 characters, never inside a surrogate pair", () => {
    const quoted = quoteSiteText("😀".repeat(5_000));
    expect(Array.from(quoted)).toHaveLength(QUOTE_LIMIT + 3);
    expect(quoted.endsWith('…"')).toBe(true);
    expect(quoted.isWellFormed()).toBe(true);
  });

  it("replaces a lone surrogate, and spells out tag characters and line separators", () => {
    expect(inertLine("a\ud800b")).toBe("a\ufffdb");
    expect(inertLine("x\u{e0041}\u2028y")).toBe("x\\u{E0041}\\u2028y");
  });

  it("bounds a whole message, and keeps line breaks only in a block", () => {
    expect(Array.from(boundedMessage("a".repeat(900_000)))).toHaveLength(1_001);
    expect(inertBlock(`line 1\n\tline 2${ESC}[2J`)).toBe("line 1\n\tline 2\\u001B[2J");
    expect(inertLine("line 1\nline 2")).toBe("line 1\\u000Aline 2");
  });
});

describe("each output's own escaping on top", () => {
  it("SARIF: escapes the embedded-link syntax and backslashes (§3.11.5)", () => {
    expect(sarifText('invalid "[click me](https://evil.example)" \\')).toBe(
      'invalid "\\[click me\\](https://evil.example)" \\\\',
    );
  });

  it("Markdown: puts a quoted value in a code span whose fence is longer than any backtick run inside", () => {
    expect(markdownCode("a ``` b")).toBe("````a ``` b````");
    expect(markdownCode("`x`")).toBe("`` `x` ``");
    const line = markdownInline(
      `entries: ${quoteSiteText("[click me](https://evil.example) <img src=x onerror=alert(1)>")}`,
    );
    expect(line).toBe('entries: `"[click me](https://evil.example) <img src=x onerror=alert(1)>"`');
  });

  it("Markdown: escapes markup in the prose around the quotes, and what would start a heading or a list", () => {
    expect(markdownInline("see [x](javascript:alert(1)) and <b>bold</b> & *em* at api_base_url")).toBe(
      "see \\[x\\](javascript:alert(1)) and \\<b\\>bold\\</b\\> \\& \\*em\\* at api_base_url",
    );
    expect(markdownInline("# not a heading")).toBe("\\# not a heading");
    expect(markdownInline("1. not a list")).toBe("1\\. not a list");
  });
});
