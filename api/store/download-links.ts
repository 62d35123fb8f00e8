import { signLink, verifyLink } from "../platform/auth/signed-links.ts";
import type { SecretRing } from "../platform/secret-ring.ts";

/** E-mailed links work this long after the e-mail is sent (content/docs/store/downloads.md). */
export const DOWNLOAD_LINK_TTL_MS = 7 * 86_400_000;

/** The label keeps the same secret's other uses (credit codes, monitor links) from ever signing a download. */
const LABEL = "download-link";
const ENTITLEMENT = /ent_[A-Za-z0-9]{1,64}/;

/**
 * `v1.<entitlement id>.<expiry, Unix seconds>.<signature, base64url>` (api/platform/signed-links.ts):
 * the link is checked by recomputing the signature, then the entitlement is read again from the database.
 */
export function signDownloadToken(secret: string, entitlementId: string, expiresAt: Date): string {
  return signLink(secret, LABEL, entitlementId, expiresAt);
}

export type TokenCheck =
  | { ok: true; entitlementId: string; expiresAt: Date }
  | { ok: false; reason: "malformed" | "signature" | "expired" };

/** Verifies under every key of the ring: a link e-mailed before a rotation is signed with a previous key. */
export function verifyDownloadToken(ring: SecretRing, token: string, now: Date): TokenCheck {
  const checked = verifyLink(ring, LABEL, ENTITLEMENT, token, now);
  return checked.ok ? { ok: true, entitlementId: checked.subject, expiresAt: checked.expiresAt } : checked;
}
