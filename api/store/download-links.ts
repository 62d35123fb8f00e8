import { createHmac, timingSafeEqual } from "node:crypto";
import { ringKeys, type SecretRing } from "../platform/secret-ring.ts";

/** E-mailed links work this long after the e-mail is sent (content/docs/store/downloads.md). */
export const DOWNLOAD_LINK_TTL_MS = 7 * 86_400_000;

const TOKEN = /^v1\.(ent_[A-Za-z0-9]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * HMAC-SHA256 under the server secret, with a label so the same secret's other uses (credit
 * codes) can never produce a valid download signature.
 */
function signature(secret: string, entitlementId: string, expiresAtSeconds: number): Buffer {
  return createHmac("sha256", secret).update(`download-link\0v1.${entitlementId}.${expiresAtSeconds}`).digest();
}

/**
 * `v1.<entitlement id>.<expiry, Unix seconds>.<signature, base64url>`: names the entitlement and
 * when the link stops working, and proves the server made it. Nothing is stored: the link is
 * checked by recomputing the signature, then the entitlement is read again from the database.
 */
export function signDownloadToken(secret: string, entitlementId: string, expiresAt: Date): string {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `v1.${entitlementId}.${seconds}.${signature(secret, entitlementId, seconds).toString("base64url")}`;
}

export type TokenCheck =
  | { ok: true; entitlementId: string; expiresAt: Date }
  | { ok: false; reason: "malformed" | "signature" | "expired" };

/**
 * Checks the form, then the signature in constant time under every key of the ring (a link e-mailed
 * before a rotation is signed with a previous key), then the expiry.
 */
export function verifyDownloadToken(ring: SecretRing, token: string, now: Date): TokenCheck {
  const match = TOKEN.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, entitlementId = "", seconds = "", given = ""] = match;
  const received = Buffer.from(given);
  let signed = false;
  // Every key is tried, without stopping at a match, so the time taken does not say which key signed.
  for (const key of ringKeys(ring)) {
    // Compared as canonical text: base64url has spare bits, so two spellings can decode to one value.
    const expected = Buffer.from(signature(key, entitlementId, Number(seconds)).toString("base64url"));
    if (received.length === expected.length && timingSafeEqual(received, expected)) signed = true;
  }
  if (!signed) return { ok: false, reason: "signature" };
  const expiresAt = new Date(Number(seconds) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, entitlementId, expiresAt };
}
