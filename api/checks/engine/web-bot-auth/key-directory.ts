import { z } from "zod";
import { jwkThumbprint } from "../../../platform/signing/jwk.ts";
import type { Verdict } from "../verdict.ts";

export const DRAFT = "draft-ietf-webbotauth-httpsig-protocol-01";

/** A key as the directory lists it; only the members the rules below read are typed. */
const DirectoryKeySchema = z.looseObject({
  kty: z.string(),
  crv: z.string().optional(),
  x: z.string().optional(),
  y: z.string().optional(),
  n: z.string().optional(),
  e: z.string().optional(),
  d: z.unknown().optional(),
  k: z.unknown().optional(),
  kid: z.string().optional(),
  alg: z.string().optional(),
  nbf: z.number().optional(),
  exp: z.number().optional(),
});
export type DirectoryKey = z.infer<typeof DirectoryKeySchema>;

/** RFC 7517 §5: a JWK Set is an object whose `keys` member is an array of JWKs. */
export const KeyDirectorySchema = z.object({ keys: z.array(DirectoryKeySchema) });

/** The HTTP Message Signatures algorithm registry (RFC 9421 §6.2.2), to which §5.5.1 restricts a key's `alg`. */
const SIGNATURE_ALGORITHMS = new Set([
  "rsa-pss-sha512",
  "rsa-v1_5-sha256",
  "ecdsa-p256-sha256",
  "ecdsa-p384-sha384",
  "ed25519",
]);

/**
 * The RFC 9421 Appendix B.1 test keys the draft's own vectors are signed with (Appendix E), by thumbprint: their
 * private halves are printed in the RFC, so anyone can sign as a directory that lists them (§6.8).
 */
const TEST_KEY_THUMBPRINTS = new Map([
  ["poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U", "test-key-ed25519"],
  ["oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA", "test-key-rsa-pss"],
]);

/** Base64url of exactly `bytes` bytes, unpadded. */
const base64urlOf = (value: string | undefined, bytes: number): boolean =>
  value !== undefined && /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, "base64url").length === bytes;

/** Why a key cannot verify a signature, or `null` for a usable public signing key (RFC 8037 §2, RFC 7518 §6). */
function keyDefect(key: DirectoryKey): string | null {
  switch (key.kty) {
    case "OKP":
      if (key.crv !== "Ed25519") return `an OKP key on ${key.crv ?? "no curve"}, not an Ed25519 signing key`;
      return base64urlOf(key.x, 32) ? null : "x is not the 32 bytes of an Ed25519 public key (base64url)";
    case "EC": {
      const size = key.crv === "P-256" ? 32 : key.crv === "P-384" ? 48 : 0;
      if (size === 0) return `an EC key on ${key.crv ?? "no curve"}, which no registered signature algorithm uses`;
      return base64urlOf(key.x, size) && base64urlOf(key.y, size) ? null : `x and y are not ${key.crv} coordinates`;
    }
    case "RSA":
      return key.n && key.e ? null : "an RSA key without n and e";
    default:
      return `kty ${key.kty} is not a public signature key type (OKP, EC or RSA)`;
  }
}

export interface JudgedKey {
  key: DirectoryKey;
  /** Its RFC 7638 thumbprint: the `keyid` a signature made with it carries. */
  thumbprint: string;
}

/**
 * Judges each key of a directory by the draft's rules and adds what is wrong to `verdict`; answers the keys a
 * verifier can use (well-formed, not a test key, not expired) with their thumbprints.
 */
export function judgeDirectoryKeys(keys: readonly DirectoryKey[], now: Date, verdict: Verdict): JudgedKey[] {
  const usable: JudgedKey[] = [];
  const nowSeconds = now.getTime() / 1000;
  let expired = 0;
  for (const [index, key] of keys.entries()) {
    const name = `key ${index + 1}${key.kid === undefined ? "" : ` (${key.kid})`}`;
    const problem = unusable(key);
    if (problem !== null) {
      verdict.must(problem.source, `${name} ${problem.problem}`);
      continue;
    }
    const thumbprint = jwkThumbprint(key) ?? "";
    const testKey = TEST_KEY_THUMBPRINTS.get(thumbprint);
    if (testKey !== undefined) {
      verdict.must(`${DRAFT} §6.8`, `${name} is RFC 9421's ${testKey}, whose private key is public`);
      continue;
    }
    if (key.kid !== undefined && key.kid !== thumbprint)
      verdict.must(`${DRAFT} §5.5`, `${name}: kid is not the key's RFC 7638 thumbprint (${thumbprint})`);
    if (key.alg !== undefined && !SIGNATURE_ALGORITHMS.has(key.alg))
      verdict.hint(`${DRAFT} §5.5.1`, `${name}: alg ${key.alg} is not in the HTTP Message Signatures registry`);
    if (key.exp !== undefined && key.exp < nowSeconds) expired += 1;
    else usable.push({ key, thumbprint });
  }
  if (expired > 0 && keys.length === expired) verdict.must(`${DRAFT} §5.5.2`, "every key in the directory has expired");
  else if (expired > 0)
    verdict.should(`${DRAFT} §5.5.2`, `${expired} expired key(s) still listed; remove expired keys`);
  return usable;
}

/** A key no verifier may use, with the clause that says so; `null` for a well-formed public signing key. */
function unusable(key: DirectoryKey): { source: string; problem: string } | null {
  if (key.kty === "oct" || key.k !== undefined)
    return { source: `${DRAFT} §6.4`, problem: "is a shared secret; Web Bot Auth forbids HMAC keys" };
  if (key.d !== undefined)
    return { source: "RFC 8037 §2", problem: "publishes its private key (d): anyone can sign with it" };
  const defect = keyDefect(key);
  return defect === null ? null : { source: `${DRAFT} §5.5.1`, problem: `is ${defect}` };
}
