/**
 * Whether an `If-None-Match` value names one of `etags` (RFC 9110 §13.1.2: weak comparison, so a
 * `W/` prefix is ignored). The one reading of the header: static files, live documents and the
 * tools listing all answer 304 by it.
 */
export function ifNoneMatchNames(ifNoneMatch: string | null | undefined, etags: readonly string[]): boolean {
  if (!ifNoneMatch) return false;
  // The common case, a client sending back the one ETag it was given, needs no parsing.
  if (etags.includes(ifNoneMatch)) return true;
  return ifNoneMatch.split(",").some((tag) => etags.includes(tag.trim().replace(/^W\//, "")));
}
