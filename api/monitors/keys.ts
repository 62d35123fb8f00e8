import { createHash, createHmac } from "node:crypto";
import { MONITOR_ID_PATTERN } from "../../src/schemas/responses/monitors.ts";
import { type LinkCheck, signLink, verifyLink } from "../platform/auth/signed-links.ts";
import { ringKeys, type SecretRing } from "../platform/secret-ring.ts";

/**
 * A monitor's public id, derived from its internal id with the server secret: the e-mails that carry
 * it are rendered when they are sent, so the id (a credential, like a report's) is never stored, and
 * a copy of the database opens no monitor. Only its SHA-256 is kept, to find the monitor by it.
 */
export function derivePublicId(secret: string, monitorId: string): string {
  return `mon_${createHmac("sha256", secret).update(`monitor-id\0${monitorId}`).digest("base64url")}`;
}

/** What is stored to look a public id up: enough entropy (256 bits) that a plain hash cannot be reversed. */
export function publicIdHash(publicId: string): string {
  return createHash("sha256").update(publicId).digest("hex");
}

export const isPublicId = (value: string): boolean => new RegExp(MONITOR_ID_PATTERN).test(value);

/**
 * The public id as it was issued: derived under the ring key whose hash is the stored one, so a
 * link sent after a rotation still opens the monitor; `null` once that key has been retired.
 */
export function issuedPublicId(ring: SecretRing, monitorId: string, storedHash: string): string | null {
  for (const key of ringKeys(ring)) {
    const candidate = derivePublicId(key, monitorId);
    if (publicIdHash(candidate) === storedHash) return candidate;
  }
  return null;
}

/** What an e-mailed link does; each is signed under its own label, so one can never act as the other. */
export type LinkPurpose = "confirm" | "unsubscribe";

const LABELS: Record<LinkPurpose, string> = { confirm: "monitor-confirm", unsubscribe: "monitor-unsubscribe" };
const MONITOR = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** A confirmation link works until the unconfirmed monitor is removed; an unsubscribe link for a year. */
export const LINK_TTL_MS: Record<LinkPurpose, number> = { confirm: 7 * 86_400_000, unsubscribe: 365 * 86_400_000 };

export function signMonitorLink(secret: string, purpose: LinkPurpose, monitorId: string, expiresAt: Date): string {
  return signLink(secret, LABELS[purpose], monitorId, expiresAt);
}

export function verifyMonitorLink(ring: SecretRing, purpose: LinkPurpose, token: string, now: Date): LinkCheck {
  return verifyLink(ring, LABELS[purpose], MONITOR, token, now);
}
