import { createHmac, timingSafeEqual } from "node:crypto";
import { LINK_EXPIRY_PATTERN } from "../../../src/schemas/common.ts";
import { ringKeys, type SecretRing } from "../secret-ring.ts";

/**
 * HMAC-SHA256 under a server secret, with a label per use (download links, monitor confirmations,
 * unsubscribes), so a link made for one purpose can never verify as another's.
 */
function signature(secret: string, label: string, subject: string, expiresAtSeconds: number): Buffer {
  return createHmac("sha256", secret).update(`${label}\0v1.${subject}.${expiresAtSeconds}`).digest();
}

/**
 * `v1.<subject>.<expiry, Unix seconds>.<signature, base64url>`: names what the link is about and
 * when it stops working, and proves the server made it. Nothing is stored: a link is checked by
 * recomputing its signature, then what it names is read again from the database.
 */
export function signLink(secret: string, label: string, subject: string, expiresAt: Date): string {
  const seconds = Math.floor(expiresAt.getTime() / 1000);
  return `v1.${subject}.${seconds}.${signature(secret, label, subject, seconds).toString("base64url")}`;
}

export type LinkCheck =
  | { ok: true; subject: string; expiresAt: Date }
  | { ok: false; reason: "malformed" | "signature" | "expired" };

/**
 * Checks the form (the subject must match `subject`, a pattern without anchors or groups), then the
 * signature in constant time under every key of the ring (a link e-mailed before a rotation is
 * signed with a previous key), then the expiry. The expiry must be spelled as `signLink` spells it
 * (LINK_EXPIRY_PATTERN), so a link has exactly one valid form.
 */
export function verifyLink(ring: SecretRing, label: string, subject: RegExp, token: string, now: Date): LinkCheck {
  const match = new RegExp(`^v1\\.(${subject.source})\\.(${LINK_EXPIRY_PATTERN})\\.([A-Za-z0-9_-]{43})$`).exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, named = "", seconds = "", given = ""] = match;
  const received = Buffer.from(given);
  let signed = false;
  // Every key is tried, without stopping at a match, so the time taken does not say which key signed.
  for (const key of ringKeys(ring)) {
    // Compared as canonical text: base64url has spare bits, so two spellings can decode to one value.
    const expected = Buffer.from(signature(key, label, named, Number(seconds)).toString("base64url"));
    if (received.length === expected.length && timingSafeEqual(received, expected)) signed = true;
  }
  if (!signed) return { ok: false, reason: "signature" };
  const expiresAt = new Date(Number(seconds) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, subject: named, expiresAt };
}
