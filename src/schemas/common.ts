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
 * An e-mail address as the API description defines it: a local part, `@`, a dotted domain whose
 * last label has at least two letters; at most 320 characters.
 */
export const EMAIL_PATTERN = "^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)*\\.[A-Za-z]{2,}$";
export const EmailSchema = z
  .string()
  .max(320, "must be at most 320 characters")
  .regex(new RegExp(EMAIL_PATTERN), "must be an e-mail address like name@example.com");

/** `privacy-YYYY-MM-DD`, optionally followed by `.N` for a same-day revision. */
export const PRIVACY_VERSION_PATTERN = "^privacy-\\d{4}-\\d{2}-\\d{2}(?:\\.\\d+)?$";
export const PrivacyVersionSchema = z
  .string()
  .regex(new RegExp(PRIVACY_VERSION_PATTERN), "must look like privacy-YYYY-MM-DD or privacy-YYYY-MM-DD.N");

/** `legend-YYYY-MM-DD`. */
export const LEGEND_VERSION_PATTERN = "^legend-\\d{4}-\\d{2}-\\d{2}$";
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
 * length is checked by a refinement that always runs, and published as minItems/maxItems.
 */
export function boundedArray<T extends z.ZodType>(item: T, min: number, max: number, noun: string) {
  const bounds = min > 0 ? `${min} to ${max}` : `at most ${max}`;
  return (
    z
      .array(item)
      // `when` makes it run even after an item failed, so it must not assume an array (the type check may have failed too).
      .check(
        z.refine((items: unknown) => !Array.isArray(items) || (items.length >= min && items.length <= max), {
          message: `must list ${bounds} ${noun}`,
          when: () => true,
        }),
      )
      .meta(min > 0 ? { minItems: min, maxItems: max } : { maxItems: max })
  );
}
