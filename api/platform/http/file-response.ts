import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { H3Event } from "h3";
import { ApiProblem } from "../problem.ts";

export interface FileToSend {
  path: string;
  type: string;
  filename: string;
}

type ByteRange = { start: number; end: number };

/**
 * A single `bytes=` range (RFC 9110 §14.2). Several ranges, or a header that does not parse, are
 * ignored (the whole file is sent, which the RFC allows); a range wholly outside the file is
 * `unsatisfiable` (416).
 */
export function parseRange(header: string | null, size: number): ByteRange | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  return end < start ? null : { start, end };
}

/** The bytes `start`…`end` (inclusive) of a file, read as the client takes them. */
function streamOf(path: string, start: number, end: number): ReadableStream<Uint8Array> {
  const chunks: AsyncIterator<unknown> = createReadStream(path, { start, end })[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else if (value instanceof Uint8Array) controller.enqueue(value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/** RFC 6266: a plain ASCII name, and the exact name as RFC 8187 `filename*`. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Streams a private file: its media type, `Content-Disposition: attachment`, `Content-Length`,
 * a strong ETag, and single byte ranges (206, or 416 outside the file; `If-Range` with another
 * ETag gets the whole file). Paid files are never stored by shared caches. HEAD sends no body.
 */
export async function fileResponse(
  event: H3Event,
  file: FileToSend,
  headers: Record<string, string> = {},
): Promise<Response> {
  let size: number;
  let etag: string;
  try {
    const info = await stat(file.path);
    if (!info.isFile()) throw new Error("not a file");
    size = info.size;
    etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  } catch {
    throw new ApiProblem("service-unavailable", "The file store is unavailable; try again later.", {
      headers: { "Retry-After": "60" },
    });
  }
  const type = file.type.startsWith("text/") ? `${file.type}; charset=utf-8` : file.type;
  const common: Record<string, string> = {
    ...headers,
    "Content-Type": type,
    "Content-Disposition": contentDisposition(file.filename),
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Cache-Control": "private, no-store",
  };
  const ifRange = event.req.headers.get("if-range");
  const range = ifRange !== null && ifRange !== etag ? null : parseRange(event.req.headers.get("range"), size);
  if (range === "unsatisfiable") {
    throw new ApiProblem("range-not-satisfiable", `The file has ${size} bytes; ask for a range within them.`, {
      headers: { "Content-Range": `bytes */${size}`, ...headers },
    });
  }
  const { start, end } = range ?? { start: 0, end: size - 1 };
  const length = size === 0 ? 0 : end - start + 1;
  const responseHeaders = new Headers({ ...common, "Content-Length": String(length) });
  if (range) responseHeaders.set("Content-Range", `bytes ${start}-${end}/${size}`);
  const body = event.req.method === "HEAD" || length === 0 ? null : streamOf(file.path, start, end);
  return new Response(body, { status: range ? 206 : 200, headers: responseHeaders });
}
