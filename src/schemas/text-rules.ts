/**
 * What a free-text field takes, character by character, as one regular expression per kind of field:
 * the published JSON Schema carries it as `pattern` (ECMA-262 with the `u` flag, as JSON Schema
 * 2020-12 validators such as Ajv compile it) and the server runs the very same expression, so they
 * refuse exactly the same strings. test/schemas/free-text.test.ts holds both to it.
 */

/**
 * Characters no free-text field takes, anywhere: the C0 controls with DEL and the C1 controls
 * (NUL, which SQLite text cuts a value at; ESC and CSI, which start terminal escape sequences on a
 * staff terminal that prints the value), and Unicode's bidirectional controls (U+061C, U+200E,
 * U+200F, U+202A–U+202E, U+2066–U+2069), which make text read in another order than it is stored
 * ("Trojan Source", CVE-2021-42574). As a character class's contents.
 */
export const REFUSED_IN_TEXT = "\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";
/** The same with line breaks and tabs allowed, for the few fields that take paragraphs. */
const REFUSED_IN_PARAGRAPHS =
  "\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069";

/**
 * Half of a UTF-16 surrogate pair on its own: not a character, and not encodable as UTF-8. JSON's
 * `\ud800` escape makes one, and a lenient decoder would write U+FFFD in its place; with the `u`
 * flag a class of the surrogate range matches exactly the unpaired ones, never a well-formed pair.
 */
const LONE_SURROGATES = "\\ud800-\\udfff";

/**
 * Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, the same set in Unicode 15
 * to 17): characters that render as nothing, so two names that look the same can differ by them.
 * The zero width space U+200B, the byte-order mark U+FEFF, the soft hyphen U+00AD, the Hangul
 * fillers U+115F, U+1160, U+3164 and U+FFA0, the tag characters U+E0000–U+E0FFF, variation
 * selectors, invisible operators… Spelled out rather than `\p{Default_Ignorable_Code_Point}` so a
 * newer Unicode in some validator cannot move the line.
 */
const DEFAULT_IGNORABLE =
  "\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufff8\\u{1bca0}-\\u{1bca3}\\u{1d173}-\\u{1d17a}\\u{e0000}-\\u{e0fff}";

/** U+2028 and U+2029 end a line as a line feed does (and a JavaScript string literal, before ES2019). */
const LINE_SEPARATORS = "\\u2028\\u2029";

/**
 * The default-ignorable characters that writing needs, only where it needs them: a variation
 * selector 15 or 16 right after an emoji (❤️ is U+2764 U+FE0F), the zero width joiner between two
 * emoji (👨‍👩‍👧), and either joiner between letters or marks of a script that uses them (Persian
 * می‌خواهم, Devanagari क्‍ष), never after a Latin letter, where it only hides a difference.
 */
const NEEDED_IGNORABLES = [
  "(?<=\\p{Emoji})[\\ufe0e\\ufe0f]",
  "(?<=\\p{Emoji}\\ufe0f?)\\u200d(?=\\p{Emoji})",
  "(?<=(?![\\p{Script=Latin}\\p{Script=Common}\\p{Script=Inherited}])[\\p{L}\\p{M}])[\\u200c\\u200d](?=[\\p{L}\\p{M}])",
];

/** One character a single-line field takes (or a needed joiner or selector, in its place). */
const SINGLE_LINE_UNIT = [
  `[^${REFUSED_IN_TEXT}${LONE_SURROGATES}${DEFAULT_IGNORABLE}${LINE_SEPARATORS}]`,
  ...NEEDED_IGNORABLES,
].join("|");
/** One character a paragraph field takes: line breaks and tabs, and other invisible characters, too. */
const PARAGRAPH_UNIT = `[^${REFUSED_IN_PARAGRAPHS}${LONE_SURROGATES}]`;

export const FREE_TEXT_PATTERN = `^(?:${SINGLE_LINE_UNIT})*$`;
export const PARAGRAPHS_PATTERN = `^(?:${PARAGRAPH_UNIT})*$`;

/**
 * The longest prefix a field takes: every unit is one code point, so the greedy match stops right
 * before the first character refused in its place.
 */
const ACCEPTED_PREFIX = {
  line: new RegExp(`^(?:${SINGLE_LINE_UNIT})*`, "u"),
  paragraphs: new RegExp(`^(?:${PARAGRAPH_UNIT})*`, "u"),
};

const CONTROL = new RegExp(`^[${REFUSED_IN_TEXT}]`, "u");
const LONE_SURROGATE = new RegExp(`^[${LONE_SURROGATES}]`, "u");

/** `U+200B`: how a refused character is named, since most of them cannot be seen. */
const codePointName = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;

/**
 * Why a free-text value is refused, naming the first refused character and where it is (in
 * characters, counted as people do); `null` when the value is taken.
 */
export function refusedCharacter(value: string, paragraphs: boolean): string | null {
  const accepted = ACCEPTED_PREFIX[paragraphs ? "paragraphs" : "line"].exec(value)?.[0] ?? "";
  if (accepted.length === value.length) return null;
  const rest = value.slice(accepted.length);
  const codePoint = rest.codePointAt(0) ?? 0;
  const where = `found ${codePointName(codePoint)} at character ${[...accepted].length + 1}`;
  if (LONE_SURROGATE.test(rest))
    return `must be well-formed Unicode text: ${where}, half of a surrogate pair on its own`;
  if (CONTROL.test(rest))
    return `must not contain control or bidirectional-override characters${paragraphs ? "" : " (line breaks and tabs included)"}: ${where}`;
  return `must not contain invisible (default-ignorable) characters or line separators: ${where}`;
}
