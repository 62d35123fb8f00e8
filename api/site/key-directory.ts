import type { H3Event } from "h3";
import { FastResponse } from "srvx";
import { CORS_HEADERS, etagOf } from "../../src/lib/manifest.ts";
import { ifNoneMatchNames } from "../platform/http/if-none-match.ts";
import { keyDirectoryBody, signKeyDirectory } from "../platform/signing/key-directory.ts";
import { KEY_DIRECTORY_MEDIA_TYPE, KEY_DIRECTORY_PATH } from "../platform/signing/request-signature.ts";
import type { SigningKeyRing } from "../platform/signing/signing-keys.ts";
import type { StaticRoute } from "./site-files.ts";

type LiveHandler = (event: H3Event, base: StaticRoute) => Promise<Response>;

/**
 * `/.well-known/http-message-signatures-directory`, answered live: the build only writes an empty base (the keys
 * are the running service's, from the ring it loaded at start), and every answer carries a fresh possession proof
 * (draft-ietf-webbotauth-httpsig-protocol-01 §5.5.1 and Appendix B). Cached for an hour like other discovery
 * documents: a verifier that meets an unknown `keyid` fetches again (§5.4), and a retired key stops verifying
 * within that hour (§5.5.2). Never content-coded, so `Content-Digest` is the digest of the bytes sent.
 */
export function keyDirectoryRoute(
  ring: SigningKeyRing,
  siteUrl: string,
  now: () => Date = () => new Date(),
): [string, LiveHandler] {
  const body = keyDirectoryBody(ring);
  const etag = etagOf(body);
  const handler: LiveHandler = async (event) => {
    const proof = await signKeyDirectory(ring, body, siteUrl, now());
    const headers = {
      "Content-Type": KEY_DIRECTORY_MEDIA_TYPE,
      "Cache-Control": "public, max-age=3600",
      ETag: etag,
      ...CORS_HEADERS,
      // Browser-based verifiers read the proof cross-origin (Appendix C.11).
      "Access-Control-Expose-Headers": `${CORS_HEADERS["Access-Control-Expose-Headers"]}, Content-Digest, Signature, Signature-Input`,
      "Content-Digest": proof["content-digest"] ?? "",
      Signature: proof.signature ?? "",
      "Signature-Input": proof["signature-input"] ?? "",
    };
    // A 304 carries the fresh proof too: a cache updates its stored headers from it (RFC 9111 §4.3.4).
    const notModified = ifNoneMatchNames(event.req.headers.get("if-none-match"), [etag]);
    const withBody = !notModified && event.req.method !== "HEAD";
    return new FastResponse(withBody ? body : null, { status: notModified ? 304 : 200, headers });
  };
  return [KEY_DIRECTORY_PATH, handler];
}
