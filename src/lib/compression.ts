/** The content codings the build stores and the server sends (RFC 9110 §8.4.1), best first. */
export const CONTENT_CODINGS = ["br", "gzip"] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/**
 * Bodies up to this size go out as they are: a kilobyte fits in the first TCP packets either way,
 * and the coding's framing and the work of decoding would cost more than they save.
 */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * Whether a body of this type and size is sent compressed to a client that accepts a coding: the one
 * rule the build (its .br and .gz copies) and the server (bodies built per request) both follow.
 */
export function isWorthCompressing(type: string, bytes: number): boolean {
  return bytes > COMPRESS_MIN_BYTES && isCompressibleType(type);
}

/** Suffixes of media types that are text underneath (RFC 6839 structured syntax suffixes). */
const TEXT_SUFFIXES = ["+json", "+xml"];
const TEXT_TYPES = new Set(["application/json", "application/xml", "application/javascript", "image/svg+xml"]);

/**
 * Whether a body of this media type shrinks under br or gzip: text, JSON, XML, SVG and scripts.
 * Images, fonts, WebAssembly and Pagefind's chunks (typed application/octet-stream: it gzips them
 * itself) are already compressed. `text/event-stream` is excluded: an SSE stream must reach the
 * client event by event, which a compressor's buffering would hold back.
 */
export function isCompressibleType(type: string): boolean {
  const essence = (type.split(";")[0] ?? "").trim().toLowerCase();
  if (essence === "text/event-stream") return false;
  if (essence.startsWith("text/") || TEXT_TYPES.has(essence)) return true;
  return TEXT_SUFFIXES.some((suffix) => essence.endsWith(suffix));
}
