import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { crc32 } from "node:zlib";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const PREFIX = "agt_";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const AGENT_TOKEN_PATTERN = /^agt_[0-9A-Za-z]{38}$/;

/** Uniform base62 characters from the CSPRNG (bytes ≥ 248 are discarded so no character is favoured). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let index = 0; index < CHECKSUM_LENGTH; index++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/**
 * `agt_` + 32 random base62 characters (~190 bits) + a 6-character CRC32 checksum, as GitHub's
 * tokens do: a typo or a stray string is rejected without touching the database, and secret
 * scanners can recognise a real token.
 */
export function generateAgentToken(): string {
  return appendChecksum(`${PREFIX}${randomBase62(RANDOM_LENGTH)}`);
}

/** A prefixed random body with the same 6-character checksum (OAuth tokens carry one too: oauth-token.ts). */
export function appendChecksum(body: string): string {
  return `${body}${checksum(body)}`;
}

export function hasValidChecksum(token: string, pattern: RegExp = AGENT_TOKEN_PATTERN): boolean {
  if (!pattern.test(token)) return false;
  const body = token.slice(0, -CHECKSUM_LENGTH);
  const given = Buffer.from(token.slice(-CHECKSUM_LENGTH));
  const expected = Buffer.from(checksum(body));
  return timingSafeEqual(given, expected);
}

/** What is stored: SHA-256 of the whole token (random tokens need no slow hash). */
export function hashToken(token: string): Buffer {
  // The one-shot form: a third cheaper than createHash() on every authenticated request.
  return hash("sha256", token, "buffer");
}

export function sameHash(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
