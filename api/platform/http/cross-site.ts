/**
 * Whether a form post comes from another site: browsers send `Sec-Fetch-Site` and `Origin`, and a
 * forged cross-site post would otherwise act with the visitor's address or cookies (CSRF). Pages'
 * forms and the OAuth consent form refuse such posts.
 */
export function isCrossSitePost(method: string, headers: Headers, siteUrl: string): boolean {
  if (method !== "POST") return false;
  const site = headers.get("sec-fetch-site");
  const origin = headers.get("origin");
  return site === "cross-site" || (origin !== null && origin !== "null" && origin !== new URL(siteUrl).origin);
}
