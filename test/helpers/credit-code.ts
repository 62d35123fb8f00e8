/**
 * A credit code as the e-mails print it (`XXXXX-XXXXX-XXXXX-XXXXX-C`). The check symbol may be
 * `*`, `~`, `$` or `=`, after which `\b` would not match: hence the lookahead, not a word boundary.
 */
export const CREDIT_CODE_IN_TEXT = /\b([0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z]{5}-[0-9A-Z*~$=])(?![0-9A-Z*~$=])/;

/** The first credit code in `text`, or "" when there is none. */
export function creditCodeIn(text: string): string {
  return CREDIT_CODE_IN_TEXT.exec(text)?.[1] ?? "";
}
