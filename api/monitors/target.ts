/** A target as the checker vetted it: the origin a check would reach, and whether CHECKS_ALLOWED_TARGETS let it in. */
export interface VettedTarget {
  origin: string;
  allowListed: boolean;
}

/**
 * The one origin a monitor of this target watches, so a host spelled any way is one monitor per
 * owner and one series on its badge: the host in lower case (the URL parser's work, IDN as
 * punycode) without a trailing dot, over https. A public target can only be reached on port 80 or
 * 443 (api/checks/engine/fetch/address-guard.ts), so `http://example.com.`, `HTTPS://Example.COM:443/x`
 * and `example.com` all watch `https://example.com`: an agent-ready site is served over https, and
 * a stranger cannot pick the plain-http twin of someone's site (whose port 80 may be closed) to make
 * it look unreachable. A CHECKS_ALLOWED_TARGETS target (local work, refused in production) keeps the
 * scheme and port it was given: local fixtures speak plain http.
 */
export function monitorOrigin(target: VettedTarget): string {
  const url = new URL(target.origin);
  const hostname = url.hostname.replace(/\.$/, "");
  if (!target.allowListed) return `https://${hostname}`;
  return `${url.protocol}//${hostname}${url.port === "" ? "" : `:${url.port}`}`;
}
