import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Authentication for sqld (`--auth-jwt-key-file`): sqld accepts a request only with
 * `Authorization: Bearer <JWT>` signed (EdDSA) by the private half of a key whose public half is in
 * that file; without a claim limiting it, a token may read and write every database
 * (libsql-server's src/auth/user_auth_strategies/jwt.rs). The instances send it as
 * DATABASE_AUTH_TOKEN.
 */
export interface SqldAuth {
  /** The file sqld reads: the Ed25519 public key, SPKI in PEM. */
  publicKeyFile: string;
  /** A token for the instances and the staff commands (DATABASE_AUTH_TOKEN). */
  token: string;
  /** The same token in a 0600 file, for a shell: `DATABASE_AUTH_TOKEN=$(cat <file>)`. */
  tokenFile: string;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString("base64url");

/** A JWT sqld accepts from the holder of `privateKey`, with `claims` (none: full access, no expiry). */
export function sqldToken(privateKey: KeyObject, claims: Record<string, unknown> = {}): string {
  const signed = `${base64url(JSON.stringify({ alg: "EdDSA", typ: "JWT" }))}.${base64url(JSON.stringify(claims))}`;
  return `${signed}.${base64url(sign(null, Buffer.from(signed), privateKey))}`;
}

/**
 * The key pair in `dir` (made on first use: the private key 0600 in a 0700 directory), its public
 * key file for sqld and a token signed with it (Ed25519 signatures are deterministic: the same
 * token every time for the same key).
 */
export function sqldAuthIn(dir: string): SqldAuth {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const privateFile = join(dir, "sqld-auth.key.pem");
  const publicKeyFile = join(dir, "sqld-auth.pub.pem");
  if (!existsSync(privateFile)) {
    const { privateKey } = generateKeyPairSync("ed25519");
    writeFileSync(privateFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600, flag: "wx" });
  }
  const privateKey = createPrivateKey(readFileSync(privateFile));
  writeFileSync(publicKeyFile, createPublicKey(privateKey).export({ type: "spki", format: "pem" }), { mode: 0o600 });
  const token = sqldToken(privateKey);
  const tokenFile = join(dir, "token");
  writeFileSync(tokenFile, token, { mode: 0o600 });
  return { publicKeyFile, token, tokenFile };
}
