import type { ReadableStream } from "node:stream/web";
import { ScanFetchError } from "./scan-fetch-error.ts";

/**
 * Reads a response body up to `limit` bytes. undici's fetch hands over the body already decompressed, so the count
 * is of decoded bytes: a small gzip bomb cannot slip past a cap on the compressed size.
 */
export async function readLimitedBody(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  url: string,
  abort: () => void,
): Promise<Buffer> {
  if (body === null) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      abort();
      await reader.cancel().catch(() => undefined);
      throw new ScanFetchError(
        "too-large",
        `${url} sent more than ${formatBytes(limit)} (decompressed); the scan stopped reading`,
        url,
      );
    }
    chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(chunks, total);
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1_000_000) return `${(bytes / 1_000_000).toFixed(bytes % 1_000_000 === 0 ? 0 : 1)} MB`;
  if (bytes >= 1_000) return `${Math.round(bytes / 1_000)} kB`;
  return `${bytes} bytes`;
}
