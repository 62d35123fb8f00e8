import { z } from "zod";

/**
 * A string bounded in Unicode code points. JSON Schema's `minLength`/`maxLength` count code points,
 * zod's `.min()`/`.max()` count UTF-16 units; counting code points here keeps the published schema
 * and the server's validation in exact agreement (an emoji is one character in both).
 */
export function text(min: number, max: number) {
  return z
    .string()
    .refine(
      (value) => {
        const length = codePointLength(value);
        return length >= min && length <= max;
      },
      min === max ? `must be exactly ${min} characters` : `must be ${min} to ${max} characters long`,
    )
    .meta({ minLength: min, maxLength: max });
}

export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) length++;
  return length;
}

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
 * Control characters (C0, DEL and C1: NUL, BEL, ESC…). An address holding one would reach the
 * outbox's SMTP envelope and a staff terminal (`admin outbox list`), where ESC starts a terminal
 * escape sequence.
 */
const CONTROL_CHARACTERS = "\\u0000-\\u001f\\u007f-\\u009f";

/**
 * An e-mail address as the API description defines it: a local part, `@`, a dotted domain whose
 * last label has at least two letters; at most 320 characters; no white space or control characters.
 */
export const EMAIL_PATTERN = `^[^\\s@${CONTROL_CHARACTERS}]+@[^\\s@.${CONTROL_CHARACTERS}]+(?:\\.[^\\s@.${CONTROL_CHARACTERS}]+)*\\.[A-Za-z]{2,}$`;
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
