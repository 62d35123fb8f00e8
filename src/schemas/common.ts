import { z } from "zod";
import { FREE_TEXT_PATTERN, PARAGRAPHS_PATTERN, refusedCharacter } from "./text-rules.ts";

export { FREE_TEXT_PATTERN, PARAGRAPHS_PATTERN, REFUSED_IN_TEXT } from "./text-rules.ts";

/**
 * The one refinement every free-text field shares (through `text`): a value holding a refused
 * character is a 422 whose pointer names the field, and whose message names the character and
 * where it is, since most of them are invisible (src/schemas/text-rules.ts says which).
 */
export function refuseUnsafeCharacters(paragraphs = false) {
  return (value: string, context: z.RefinementCtx) => {
    const refused = refusedCharacter(value, paragraphs);
    if (refused) context.addIssue({ code: "custom", message: refused });
  };
}

/**
 * A string bounded in Unicode code points. JSON Schema's `minLength`/`maxLength` count code points,
 * zod's `.min()`/`.max()` count UTF-16 units; counting code points here keeps the published schema
 * and the server's validation in exact agreement (an emoji is one character in both). Free text
 * refuses ill-formed Unicode and control and bidirectional-override characters; a single line also
 * refuses invisible (default-ignorable) characters and line separators (`refuseUnsafeCharacters`);
 * `paragraphs` lets line breaks, tabs and invisible characters through.
 */
export function text(min: number, max: number, options: { paragraphs?: boolean } = {}) {
  const paragraphs = options.paragraphs ?? false;
  return z
    .string()
    .refine(
      (value) => {
        const length = codePointLength(value);
        return length >= min && length <= max;
      },
      min === max ? `must be exactly ${min} characters` : `must be ${min} to ${max} characters long`,
    )
    .superRefine(refuseUnsafeCharacters(paragraphs))
    .meta({ minLength: min, maxLength: max, pattern: paragraphs ? PARAGRAPHS_PATTERN : FREE_TEXT_PATTERN });
}

export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

/**
 * The expiry of a signed link (Unix seconds) as the server writes it: decimal without leading zeros.
 * The signature covers the number, not its digits, so `….01893456000.…` would otherwise verify as
 * `….1893456000.…`: a link has exactly one valid spelling, and nothing keyed on a token's text can be
 * handed a second form of it.
 */
export const LINK_EXPIRY_PATTERN = "(?:0|[1-9]\\d{0,11})";

/** ISO 8601 UTC timestamp with exactly three fractional digits, e.g. `2026-05-01T09:30:00.000Z`. */
export const TimestampSchema = z.iso
  .datetime({ precision: 3, error: "must be an ISO 8601 UTC time with milliseconds, e.g. 2026-11-01T09:00:00.000Z" })
  .meta({ format: "date-time" });

/** A calendar date `YYYY-MM-DD`. */
export const DateSchema = z.iso.date({ error: "must be a date like 2026-11-01" });

/** Lower-case words joined by single hyphens: `refund-policy`, `agent-readiness-101`. */
export const SlugSchema = z
  .string()
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case letters and digits joined by single hyphens");

/**
 * An e-mail address that the mail transport (nodemailer) sends to exactly as written, so the
 * delivery goes to the address stored and shown: an ASCII dot-atom local part (RFC 5321's atext:
 * letters, digits and ``!#$%&'*+/=?^_`{|}~-``, dots only between them), `@`, and a dotted domain of letters, digits and inner hyphens whose last label has at
 * least two letters (the API description's rule). Everything else is refused rather than
 * rewritten: a comma, `<`, `:` or parentheses make the transport read other recipients or a display
 * name; spaces, controls and invisible or direction-changing characters (U+200B, U+00AD, U+202E…)
 * hide what the address is; a domain in Unicode is sent in its `xn--` form and must be written so;
 * a local part outside ASCII needs SMTPUTF8 all the way and makes the transport rewrite the domain.
 * The domain's case is the one difference the transport makes (it lower-cases it), and DNS ignores
 * case (RFC 5321 §2.4). test/schemas/email-transport.test.ts proves all of it with nodemailer's own
 * parser on every e-mail field.
 */
const ATEXT = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]";
const DOMAIN_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
export const EMAIL_PATTERN = `^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${DOMAIN_LABEL}\\.)+[A-Za-z]{2,63}$`;
export const EmailSchema = z
  .string()
  .max(320, "must be at most 320 characters")
  .regex(new RegExp(EMAIL_PATTERN), "must be an e-mail address like name@example.com");

/**
 * A real calendar date `YYYY-MM-DD` (months 01–12, only the days each month has, 29 February in
 * leap years only), for version patterns: zod's own ISO date expression without its anchors.
 */
export const CALENDAR_DATE_PATTERN = z.regexes.date.source.replace(/^\^|\$$/g, "");

/** `privacy-YYYY-MM-DD`, optionally followed by `.N` for a same-day revision. */
export const PRIVACY_VERSION_PATTERN = `^privacy-${CALENDAR_DATE_PATTERN}(?:\\.\\d+)?$`;
export const PrivacyVersionSchema = z
  .string()
  .regex(new RegExp(PRIVACY_VERSION_PATTERN), "must look like privacy-YYYY-MM-DD or privacy-YYYY-MM-DD.N");

/** `legend-YYYY-MM-DD`. */
export const LEGEND_VERSION_PATTERN = `^legend-${CALENDAR_DATE_PATTERN}$`;
export const LegendVersionSchema = z
  .string()
  .regex(new RegExp(LEGEND_VERSION_PATTERN), "must look like legend-YYYY-MM-DD");

/** An absolute http(s) URL. */
export const HttpUrlSchema = z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" });

/** Minor currency units (cents) and a lower-case ISO 4217 code, as the payment provider expects them. */
export const MoneySchema = z.strictObject({
  /** Amount in the currency's minor unit (e.g. cents). */
  amount: z
    .int("must be a whole number of minor units")
    .min(0, "must not be negative")
    .max(99_999_999, "must be at most 99999999"),
  /** ISO 4217 code in lower case, e.g. `eur`. */
  currency: z.string().regex(/^[a-z]{3}$/, "must be a lower-case ISO 4217 code such as eur"),
});
export type Money = z.infer<typeof MoneySchema>;

/**
 * An array of `min` to `max` items. zod's own `.min()`/`.max()` stop at a length failure without
 * checking the items; a request with 21 use cases and a bad one must hear about both, so the
 * length is checked by a refinement that always runs, and published as minItems/maxItems. With
 * `unique`, each repeated item is a violation at its own pointer naming what it repeats
 * (published as uniqueItems).
 */
export function boundedArray<T extends z.ZodType>(
  item: T,
  min: number,
  max: number,
  noun: string,
  options: { unique?: boolean } = {},
) {
  const bounds = min > 0 ? `${min} to ${max}` : `at most ${max}`;
  // `when` makes these run even after an item failed, so they must not assume an array (the type check may have failed too).
  const array = z.array(item).check(
    z.refine((items: unknown) => !Array.isArray(items) || (items.length >= min && items.length <= max), {
      message: `must list ${bounds} ${noun}`,
      when: () => true,
    }),
  );
  const lengths = min > 0 ? { minItems: min, maxItems: max } : { maxItems: max };
  if (!options.unique) return array.meta(lengths);
  return array.check(z.superRefine(reportRepeats(noun), { when: () => true })).meta({ ...lengths, uniqueItems: true });
}

function reportRepeats(noun: string) {
  return (items: unknown, context: z.RefinementCtx) => {
    if (!Array.isArray(items)) return;
    const firstIndex = new Map<string, number>();
    items.forEach((value: unknown, index) => {
      const key = JSON.stringify(value);
      const first = firstIndex.get(key);
      if (first === undefined) firstIndex.set(key, index);
      else
        context.addIssue({
          code: "custom",
          path: [index],
          message: `repeats ${key} (item ${first}): list each of the ${noun} once`,
        });
    });
  };
}
