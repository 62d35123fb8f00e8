import { randomBytes } from "node:crypto";
import { createSigner, httpbis } from "http-message-signatures";
import { serializeDictionary } from "structured-headers";
import { TYPES } from "../../../src/lib/outputs/artifact.ts";
import { paths } from "../../../src/lib/urls.ts";
import type { SigningKeyRing } from "./signing-keys.ts";

export const KEY_DIRECTORY_PATH = paths.keyDirectory();
export const KEY_DIRECTORY_MEDIA_TYPE = TYPES.keyDirectory;

/** The signature's label; the `Signature-Agent` member that names our directory has the same key (§5.2.1). */
const LABEL = "sig1";

/**
 * How long a signature stays valid. The draft recommends at most 24 hours (§5.2); a request is sent the moment it is
 * signed, so five minutes leave room for a verifier's clock skew while keeping a captured signature's replay short
 * (§6.9, "Static Signatures").
 */
const LIFETIME_MS = 5 * 60_000;

/**
 * `@authority` and the `Signature-Agent` member are what the draft requires (§5.2, §5.2.1); `@method` and `@path`
 * narrow the signature to this one request, as §5.2 says agents SHOULD. The query is left out: intermediaries may
 * reorder it for caching (§5.2, on `@target-uri`).
 */
const COVERED = ["@method", "@authority", "@path", `signature-agent;key="${LABEL}"`];
const PARAMETERS = ["created", "expires", "keyid", "alg", "nonce", "tag"];

export interface SignableRequest {
  method: string;
  url: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string>>;
}

/** Answers a request's headers with `Signature-Agent`, `Signature-Input` and `Signature` added. */
export type RequestSigner = (request: SignableRequest) => Promise<Record<string, string>>;

/**
 * Signs requests as Web Bot Auth asks (draft-ietf-webbotauth-httpsig-protocol-01 §5.2): RFC 9421 HTTP Message
 * Signatures with the ring's current Ed25519 key, `keyid` its RFC 7638 thumbprint, `tag="web-bot-auth"`, a fresh
 * `created`/`expires` window and a nonce per request, and `Signature-Agent` naming `directoryUrl` (the URL that
 * is the crawler's identity, §4.1). The RFC 9421 work is the `http-message-signatures` library's.
 */
export function webBotAuthSigner(
  ring: SigningKeyRing,
  directoryUrl: string,
  now: () => Date = () => new Date(),
): RequestSigner {
  const key = createSigner(ring.current.privateKey, "ed25519", ring.current.keyid);
  const signatureAgent = serializeDictionary(new Map([[LABEL, [directoryUrl, new Map()]]]));
  return async (request) => {
    const created = now();
    const headers = { ...request.headers, "signature-agent": signatureAgent };
    const signed = await httpbis.signMessage(
      {
        key,
        name: LABEL,
        fields: COVERED,
        params: PARAMETERS,
        paramValues: {
          created,
          expires: new Date(created.getTime() + LIFETIME_MS),
          nonce: randomBytes(32).toString("base64"),
          tag: "web-bot-auth",
        },
      },
      { method: request.method, url: request.url, headers },
    );
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers)) out[name.toLowerCase()] = [value].flat().join(", ");
    return out;
  };
}

/** The crawler's signer for the service at `siteUrl`: its `Signature-Agent` is that site's key directory. */
export const crawlerSigner = (ring: SigningKeyRing, siteUrl: string): RequestSigner =>
  webBotAuthSigner(ring, new URL(KEY_DIRECTORY_PATH, siteUrl).href);

/**
 * The headers one hop is sent with: the request's own, plus its signature when the scan signs (every scan the service
 * or the CLI runs does; only tests not about signing leave it out). A copy either way, so the caller's headers (kept
 * by a scan's cache and evidence) never carry a signature.
 */
export async function signedHeaders(
  signer: RequestSigner | null,
  request: { method: string; href: string; headers: Readonly<Record<string, string>> },
): Promise<Record<string, string>> {
  const { method, href, headers } = request;
  return signer === null ? { ...headers } : await signer({ method, url: href, headers });
}
