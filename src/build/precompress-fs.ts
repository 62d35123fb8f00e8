import { readFile, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { COMPRESS_MIN_BYTES, type ContentCoding, isCompressibleType } from "../lib/compression.ts";
import { type EncodedFile, etagOf, type RouteEntry } from "../lib/manifest.ts";

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli quality 6. Measured on the 2,000-page benchmark's files (`npm run bench -- build`, 94 MB of
 * text): quality 6 compresses at about 50–60 MB/s to 16.3 % of the size (gzip 9: 19 %, at a similar
 * speed); 7 to 9 give the same size 4 to 100 times slower; 10 and 11 save another 2.5 points of the
 * original size but run at 0.6–2 MB/s, which would add minutes to that build.
 */
export const BROTLI_QUALITY = 6;
export const GZIP_LEVEL = 9;

const SUFFIX: Record<ContentCoding, string> = { br: ".br", gzip: ".gz" };

const encoders: Record<ContentCoding, (bytes: Buffer) => Promise<Buffer>> = {
  br: (bytes) =>
    brotliAsync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        // A window no larger than the file: the default 4 MB one is allocated per call and made the
        // benchmark build's compression a third slower, for the same size.
        [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(10, Math.ceil(Math.log2(bytes.length)))),
      },
    }),
  gzip: (bytes) => gzipAsync(bytes, { level: GZIP_LEVEL }),
};

/** Whether the build stores precompressed copies of a route's file. Live documents are computed per request. */
export function takesPrecompression(entry: RouteEntry): boolean {
  return !entry.live && entry.bytes > COMPRESS_MIN_BYTES && isCompressibleType(entry.type);
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file over a kilobyte and records them in its
 * route entry; a coding that does not make the file smaller is skipped. zlib's asynchronous API
 * runs on libuv's thread pool, so a few files are compressed at once, one per core, while the build's
 * own thread (and Pagefind's process) go on; more at once would only hold more files in memory.
 */
export async function precompressFiles(clientDir: string, entries: RouteEntry[]): Promise<void> {
  const queue = entries.filter(takesPrecompression);
  const worker = async () => {
    for (let entry = queue.pop(); entry; entry = queue.pop()) await precompressFile(clientDir, entry);
  };
  await Promise.all(Array.from({ length: Math.max(2, availableParallelism()) }, worker));
}

async function precompressFile(clientDir: string, entry: RouteEntry): Promise<void> {
  const bytes = await readFile(join(clientDir, entry.file));
  const encodings: Partial<Record<ContentCoding, EncodedFile>> = {};
  for (const coding of ["br", "gzip"] as const) {
    const encoded = await encoders[coding](bytes);
    if (encoded.length >= bytes.length) continue;
    const file = `${entry.file}${SUFFIX[coding]}`;
    await writeFile(join(clientDir, file), encoded);
    encodings[coding] = { file, bytes: encoded.length, etag: etagOf(encoded) };
  }
  if (Object.keys(encodings).length > 0) entry.encodings = encodings;
}
