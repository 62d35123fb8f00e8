/**
 * Whether a docs search really found its words. Pagefind matches each word of a query against the
 * stems in its index that start with it; when none does, it falls back to the longest stem that the
 * word itself starts with (`find_word_extensions` in pagefind_web/src/search.rs), so a nonsense query
 * such as "xqzvbnw" matched every page with an "x" in it and listed 11 unrelated pages. That fallback
 * is meant for typos ("authentcation" still finds "authentication"), so it is kept when the word found
 * shares a fair part of the query word, and refused when it shares one or two letters.
 *
 * The fallback applies to a query word on every page alike, so the words matched on one result (the
 * first) say whether each query word was found at all.
 */
export function queryWasFound(query: string, matchedWords: readonly string[]): boolean {
  const found = matchedWords.flatMap((word) => {
    const plain = normalise(word);
    return [withoutPunctuation(plain), ...plain.split(/[^\p{L}\p{N}]+/u)].filter(Boolean);
  });
  const words = withoutPunctuation(normalise(query)).split(/\s+/).filter(Boolean);
  return words.every((word) => {
    const needed = Math.min(word.length, Math.max(3, Math.ceil(word.length * 0.4)));
    return found.some((candidate) => sharedPrefix(word, candidate) >= needed);
  });
}

/** Lower case, without accents, as Pagefind compares words. */
function normalise(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Pagefind drops punctuation from a query rather than splitting at it ("rate-limit" is "ratelimit"), and
 * indexes a hyphenated or dotted word whole as well as in parts (`WWW-Authenticate`: "wwwauthenticate",
 * "www", "authenticate"); underscores and symbols stay.
 */
function withoutPunctuation(text: string): string {
  return text.replace(/[\p{Pd}\p{Pe}\p{Pf}\p{Pi}\p{Po}\p{Ps}]/gu, "");
}

function sharedPrefix(a: string, b: string): number {
  let index = 0;
  while (index < a.length && index < b.length && a[index] === b[index]) index++;
  return index;
}
