import type { ReadableStream } from "node:stream/web";

export interface LimitedBody {
  /** At most `limit` bytes. */
  bytes: Buffer;
  /** The body went on past the limit; the scan stopped reading there. */
  truncated: boolean;
}

/**
 * Reads a response body up to `limit` bytes and stops there. undici's fetch hands over the body already decompressed,
 * so the count is of decoded bytes: a small gzip bomb cannot slip past a cap on the compressed size. What was read is
 * kept, so a check can still judge the start of an oversize document (RFC 9309 §2.5 parses the first 500 KiB).
 */
export async function readLimitedBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  abort: () => void,
): Promise<LimitedBody> {
  if (body === null) return { bytes: Buffer.alloc(0), truncated: false };
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = limit - total;
    if (value.byteLength > room) {
      chunks.push(Buffer.from(value.buffer, value.byteOffset, room));
      abort();
      await reader.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks, limit), truncated: true };
    }
    total += value.byteLength;
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return { bytes: Buffer.concat(chunks, total), truncated: false };
}
