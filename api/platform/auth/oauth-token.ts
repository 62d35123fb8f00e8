import { appendChecksum, hasValidChecksum } from "./agent-token.ts";

/**
 * OAuth tokens the authorization server issues (api/oauth/): opaque like agent tokens, with a prefix
 * of their own and the same checksum, so a secret scanner can tell them apart and a typo is refused
 * without a database read. The random part is the library's own (256 bits, base64url).
 */
export const OAUTH_TOKEN_PREFIXES = { AccessToken: "oat_", RefreshToken: "ort_" } as const;

const OAUTH_ACCESS_TOKEN_PATTERN = /^oat_[A-Za-z0-9_-]{43}[0-9A-Za-z]{6}$/;

export function prefixedToken(prefix: string, random: string): string {
  return appendChecksum(`${prefix}${random}`);
}

/** An OAuth access token as issued here: its prefix, length and checksum hold. */
export function isOAuthAccessToken(token: string): boolean {
  return token.startsWith(OAUTH_TOKEN_PREFIXES.AccessToken) && hasValidChecksum(token, OAUTH_ACCESS_TOKEN_PATTERN);
}
