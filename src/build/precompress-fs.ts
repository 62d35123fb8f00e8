import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { type ContentCoding, isWorthCompressing } from "../lib/compression.ts";
import { type EncodedFile, etagOf, type RouteEntry } from "../lib/manifest.ts";

/**
 * Brotli quality 5 and gzip level 6. Measured on the 2,000-page benchmark's files (`npm run bench --
 * build`, ≤ 40 s; 6,149 files, 94 MB of text), one thread: brotli 5 took 1.17 s for 16.36 % of the
 * size, 6 took 1.6 s for 16.32 %; 7 to 9 give the same size 4 to 100 times slower, and 10 and 11 save
 * another 2.5 points at 0.6–2 MB/s, minutes on that build. gzip, sent only to the few clients
 * without brotli: level 6 took 0.65 s for 19.41 %, level 9 took 1.15 s for 18.98 %.
 */
export const BROTLI_QUALITY = 5;
export const GZIP_LEVEL = 6;

const SUFFIX: Record<ContentCoding, string> = { br: ".br", gzip: ".gz" };

const encoders: Record<ContentCoding, (bytes: Buffer) => Buffer> = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        // A window no larger than the file: the default 4 MB one is allocated per call and made the
        // benchmark build's compression a third slower, for the same size.
        [constants.BROTLI_PARAM_LGWIN]: Math.min(24, Math.max(10, Math.ceil(Math.log2(bytes.length)))),
      },
    }),
  gzip: (bytes) => gzipSync(bytes, { level: GZIP_LEVEL }),
};

/** Whether the build stores precompressed copies of a route's file. Live documents are computed per request. */
export function takesPrecompression(entry: RouteEntry): boolean {
  return !entry.live && isWorthCompressing(entry.type, entry.bytes);
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file over a kilobyte and records them in its
 * route entry; a coding that does not make the file smaller is skipped. It runs while Pagefind
 * indexes in its own process, one file at a time on this thread, yielding between files so the
 * indexer's messages keep flowing. Measured on the 2,000-page benchmark (6,144 files, 94 MB): zlib's
 * asynchronous API, two files at a time on its thread pool, cost 5–6 s of CPU against 3 s for the
 * synchronous calls (a thread hand-off per call), and finished 3.5 s later (19 s against 15.5 s, the
 * machine under other load): on 2 cores the indexer already holds the other one.
 */
export async function precompressFiles(clientDir: string, entries: RouteEntry[]): Promise<void> {
  for (const entry of entries.filter(takesPrecompression)) {
    await precompressFile(clientDir, entry);
    await nextTurn();
  }
}

async function precompressFile(clientDir: string, entry: RouteEntry): Promise<void> {
  const bytes = await readFile(join(clientDir, entry.file));
  const encodings: Partial<Record<ContentCoding, EncodedFile>> = {};
  for (const coding of ["br", "gzip"] as const) {
    const encoded = encoders[coding](bytes);
    if (encoded.length >= bytes.length) continue;
    const file = `${entry.file}${SUFFIX[coding]}`;
    await writeFile(join(clientDir, file), encoded);
    encodings[coding] = { file, bytes: encoded.length, etag: etagOf(encoded) };
  }
  if (Object.keys(encodings).length > 0) entry.encodings = encodings;
}
