import { createHash } from "node:crypto";
import { createSigner, httpbis } from "http-message-signatures";
import { KEY_DIRECTORY_PATH } from "./request-signature.ts";
import { publishedKeys, type SigningKeyRing } from "./signing-keys.ts";

/**
 * How long a directory response's signature stays valid. Verifiers may keep the proof with redistributed keys, and
 * at its expiry every copy drops to "unverified" at once, so it should outlast any republication interval
 * (draft-ietf-webbotauth-httpsig-protocol-01 Appendix C.8); each response is signed afresh.
 */
const DIRECTORY_SIGNATURE_LIFETIME_MS = 24 * 3_600_000;

/**
 * The key directory: a JWK Set (§5.5.1) of every published key, current first, each with `kid` = its RFC 7638
 * thumbprint (§5.5) and `use: "sig"`. No `alg`: the draft limits it to the HTTP Signature Algorithms registry
 * (`ed25519`) while JWA names the same algorithm `EdDSA` (RFC 8037 §3.1), so either value misleads some verifier.
 */
export function keyDirectoryBody(ring: SigningKeyRing): string {
  const keys = publishedKeys(ring).map((key) => ({ ...key.publicJwk, kid: key.keyid, use: "sig" }));
  return JSON.stringify({ keys });
}

/** RFC 9530 `Content-Digest` of a body sent without content coding. */
export function contentDigest(body: string | Uint8Array): string {
  return `sha-256=:${createHash("sha256").update(body).digest("base64")}:`;
}

/**
 * The possession proof of Appendix B.1: one RFC 9421 signature per published key over `"@authority";req` and
 * `content-digest`, with `created`, `expires`, `keyid` and `tag="http-message-signatures-directory"`. `authority`
 * is the service's own (from SITE_URL), never the request's Host: signing whatever authority a client names would
 * let anyone re-serve our key set under their domain with a valid proof, which is what the proof exists to prevent.
 */
export async function signKeyDirectory(
  ring: SigningKeyRing,
  body: string,
  siteUrl: string,
  now: Date,
): Promise<Record<string, string>> {
  const request = { method: "GET", url: new URL(KEY_DIRECTORY_PATH, siteUrl), headers: {} };
  let response = {
    status: 200,
    headers: { "content-digest": contentDigest(body) } as Record<string, string | string[]>,
  };
  for (const [index, key] of publishedKeys(ring).entries()) {
    response = await httpbis.signMessage(
      {
        key: createSigner(key.privateKey, "ed25519", key.keyid),
        name: `binding${index}`,
        fields: ['"@authority";req', "content-digest"],
        params: ["created", "expires", "keyid", "alg", "tag"],
        paramValues: {
          created: now,
          expires: new Date(now.getTime() + DIRECTORY_SIGNATURE_LIFETIME_MS),
          tag: "http-message-signatures-directory",
        },
      },
      response,
      request,
    );
  }
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) out[name.toLowerCase()] = [value].flat().join(", ");
  return out;
}
