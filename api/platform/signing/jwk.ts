import { createHash, createPrivateKey, createPublicKey, type KeyObject, randomBytes } from "node:crypto";

/** The public members of a JSON Web Key, as a key directory publishes them (RFC 7517 §4, RFC 8037 §2). */
export interface PublicJwk {
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
  n?: string;
  e?: string;
}

/** The members RFC 7638 §3.2 hashes, per key type, in the lexicographic order the thumbprint needs. */
const REQUIRED_MEMBERS: Readonly<Record<string, readonly (keyof PublicJwk)[]>> = {
  OKP: ["crv", "kty", "x"],
  EC: ["crv", "kty", "x", "y"],
  RSA: ["e", "kty", "n"],
};

/**
 * The RFC 7638 SHA-256 thumbprint of a public key, base64url: what Web Bot Auth requires as `keyid` and as a
 * directory's `kid` (draft-ietf-webbotauth-httpsig-protocol-01 §5.2, RFC 8037 Appendix A.3 for Ed25519).
 * `null` for a key type without a thumbprint rule or a key missing a required member.
 */
export function jwkThumbprint(jwk: PublicJwk): string | null {
  const members = REQUIRED_MEMBERS[jwk.kty];
  if (members === undefined) return null;
  const canonical: Record<string, string> = {};
  for (const member of members) {
    const value = jwk[member];
    if (typeof value !== "string") return null;
    canonical[member] = value;
  }
  // JSON.stringify keeps insertion order, and the members were inserted sorted; their values need no escaping
  // beyond what JSON.stringify does, which is what RFC 7638 §3.3 asks.
  return createHash("sha256").update(JSON.stringify(canonical)).digest("base64url");
}

/** An Ed25519 signing key held by the service: the private key, its public JWK and its thumbprint. */
export interface Ed25519Key {
  privateKey: KeyObject;
  publicJwk: { kty: "OKP"; crv: "Ed25519"; x: string };
  /** The RFC 7638 thumbprint: the `keyid` of every signature and the `kid` in the directory. */
  keyid: string;
}

// An Ed25519 private key in PKCS #8 DER is this fixed prefix followed by the 32-byte seed (RFC 8410 §7).
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** A new seed: 32 random bytes, base64url (43 characters), as a JWK's `d` (RFC 8037 §2); any 32 bytes are a key. */
export const newEd25519Seed = (): string => randomBytes(32).toString("base64url");

/** The key a seed stands for; throws a RangeError for anything but 32 base64url-encoded bytes. */
export function ed25519KeyFromSeed(seed: string): Ed25519Key {
  const bytes = Buffer.from(seed, "base64url");
  if (bytes.length !== 32 || bytes.toString("base64url") !== seed)
    throw new RangeError("an Ed25519 signing key is 32 bytes, base64url-encoded (43 characters)");
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, bytes]),
    format: "der",
    type: "pkcs8",
  });
  const { x } = createPublicKey(privateKey).export({ format: "jwk" });
  if (typeof x !== "string") throw new Error("node:crypto exported an Ed25519 public key without x");
  const publicJwk = { kty: "OKP", crv: "Ed25519", x } as const;
  return { privateKey, publicJwk, keyid: jwkThumbprint(publicJwk) ?? "" };
}
