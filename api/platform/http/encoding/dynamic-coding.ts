import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { COMPRESS_MIN_BYTES, type ContentCoding, isCompressibleType } from "../../../../src/lib/compression.ts";
import { chooseContentCoding } from "./accept-encoding.ts";

/**
 * Codings for bodies built per request, gzip first. Measured on our JSON answers of 4–12 KB
 * (/api/v1/products, /capabilities.json, /api/v1/docs): gzip level 6 took 60–100 µs for 15–25 %
 * of the size; brotli at quality 4 gave the same size in 110–260 µs (its encoder costs more to set
 * up than a small body repays). Brotli still answers a client that takes only br, or prefers it by q.
 */
const DYNAMIC_CODINGS: Record<ContentCoding, (body: string) => Buffer> = {
  gzip: (body) => gzipSync(body, { level: 6 }),
  br: (body) =>
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) },
    }),
};
const PREFERENCE: readonly ContentCoding[] = ["gzip", "br"];

/** A whole response's headers and body after content coding. */
export interface CodedBody {
  headers: [string, string][];
  body: string | Uint8Array | null;
}

/**
 * Compresses a body built for this request when it is text over a kilobyte and the client accepts
 * a coding. Such a body says `Vary: Accept-Encoding` whatever the coding (merged into a `Vary`
 * already there), and a strong ETag gets the coding appended: RFC 9110 §8.8.3 wants validators to
 * differ between codings. HEAD gets the headers GET would, without compressing anything. The
 * compression is synchronous: for bodies this size it costs less than handing them to zlib's
 * thread pool and back.
 */
export function codeDynamicBody(
  headers: [string, string][],
  body: string | null,
  request: { method: string; acceptEncoding: string | null },
): CodedBody {
  const sendsBody = request.method !== "HEAD";
  const type = headers.find(([name]) => name === "Content-Type")?.[1] ?? "";
  if (body === null || !isCompressibleType(type) || Buffer.byteLength(body) <= COMPRESS_MIN_BYTES)
    return { headers, body: sendsBody ? body : null };
  const coding = chooseContentCoding(request.acceptEncoding, DYNAMIC_CODINGS, PREFERENCE);
  const coded = headers.map(([name, value]): [string, string] => {
    if (name === "Vary") return [name, `${value}, Accept-Encoding`];
    if (name === "ETag" && coding) return [name, codedEtag(value, coding)];
    return [name, value];
  });
  if (!coded.some(([name]) => name === "Vary")) coded.push(["Vary", "Accept-Encoding"]);
  if (!coding) return { headers: coded, body: sendsBody ? body : null };
  coded.push(["Content-Encoding", coding]);
  return { headers: coded, body: sendsBody ? DYNAMIC_CODINGS[coding](body) : null };
}

/** The ETag of a body sent with `coding`: the identity ETag with the coding appended. */
function codedEtag(etag: string, coding: ContentCoding): string {
  return etag.replace(/"$/, `-${coding}"`);
}

/** Every ETag `codeDynamicBody` may give a body whose identity ETag is `etag`: a client revalidates with the one it got. */
export function etagsInEveryCoding(etag: string): string[] {
  return [etag, ...PREFERENCE.map((coding) => codedEtag(etag, coding))];
}
