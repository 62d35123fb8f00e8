import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ringKeys, type SecretRing } from "../../platform/secret-ring.ts";

/**
 * The consent form's CSRF defence: a random nonce in a cookie only this site can read, and in the
 * form an HMAC of it and the interaction it belongs to, under the server secret. A page on another
 * site can neither read the cookie nor compute the token, and a token from one sign-in does not
 * verify for another. (Posts that say they come from another site are refused before this.)
 */
const LABEL = "oauth-consent-csrf\0v1";
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** `__Host-` on https (Secure, Path=/, no Domain: no subdomain can set or read it); plain on local http. */
export function csrfCookieName(secure: boolean): string {
  return secure ? "__Host-oauth_csrf" : "oauth_csrf";
}

export function csrfCookie(secure: boolean, nonce: string, maxAgeSeconds: number): string {
  return `${csrfCookieName(secure)}=${nonce}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** The browser's nonce when it has a well-formed one, else a new one to set. */
export function csrfNonce(cookieHeader: string | null, secure: boolean): { nonce: string; fresh: boolean } {
  const name = csrfCookieName(secure);
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, value] = part.trim().split("=", 2);
    if (key === name && value !== undefined && NONCE.test(value)) return { nonce: value, fresh: false };
  }
  return { nonce: randomBytes(32).toString("base64url"), fresh: true };
}

function tokenUnder(key: string, uid: string, nonce: string): string {
  return createHmac("sha256", key).update(`${LABEL}\0${uid}\0${nonce}`).digest("base64url");
}

export function csrfToken(ring: SecretRing, uid: string, nonce: string): string {
  return tokenUnder(ring.current, uid, nonce);
}

/** Whether the form's token is this browser's for this interaction; every key of the ring is tried, in constant time. */
export function csrfHolds(
  ring: SecretRing,
  uid: string,
  cookieHeader: string | null,
  secure: boolean,
  token: string,
): boolean {
  const { nonce, fresh } = csrfNonce(cookieHeader, secure);
  if (fresh) return false;
  const given = Buffer.from(token);
  let holds = false;
  for (const key of ringKeys(ring)) {
    const expected = Buffer.from(tokenUnder(key, uid, nonce));
    if (given.length === expected.length && timingSafeEqual(given, expected)) holds = true;
  }
  return holds;
}
