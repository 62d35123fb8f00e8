import type { Readable } from "node:stream";
import type { H3Event } from "h3";
import type { z } from "zod";
import { ApiProblem } from "./problem.ts";
import { validationProblem, violationsOf } from "./violations.ts";

export interface ReadJsonOptions {
  limitBytes: number;
  /** The body may be absent (then `{}` is validated). */
  optional?: boolean;
}

/** One strict decoder for every body: making one is dearer than decoding a small body with it. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * The client went away before its request body ended (closed the connection, or it was reset): no
 * one is left to answer, and nothing failed on this side, so the app logs it as a client abort
 * (status 499, as nginx names it), never as a 500.
 */
export class ClientClosedRequest extends Error {
  constructor() {
    super("the client closed the connection before the request body ended");
  }
}

/** nginx's status for a request whose client hung up: what the request line records. */
export const CLIENT_CLOSED_REQUEST = 499;

/** What Node reports on a request whose connection closed mid-body: `aborted` (ECONNRESET). */
const isConnectionLoss = (error: unknown) =>
  error instanceof Error && "code" in error && (error.code === "ECONNRESET" || error.code === "ECONNABORTED");

function tooLarge(limitBytes: number): ApiProblem {
  return new ApiProblem("payload-too-large", `The body is over the limit of ${limitBytes} bytes.`);
}

/**
 * The body's bytes, refusing (413) as soon as they pass the limit rather than after reading them
 * all. On Node the request stream is read directly: the web-stream wrapper cost ~100 µs a request.
 */
export async function readLimited(event: H3Event, limitBytes: number): Promise<Uint8Array> {
  const declared = Number(event.req.headers.get("content-length") ?? "0");
  if (declared > limitBytes)
    throw new ApiProblem("payload-too-large", `The body is ${declared} bytes; the limit is ${limitBytes}.`);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: Uint8Array) => {
    total += chunk.byteLength;
    if (total > limitBytes) {
      // The 413 is still sent; then the connection closes rather than read the rest of the body.
      const response = event.runtime?.node?.res;
      if (response && "shouldKeepAlive" in response) response.shouldKeepAlive = false;
      throw tooLarge(limitBytes);
    }
    chunks.push(chunk);
  };
  const node = event.runtime?.node?.req;
  if (node) {
    await readNodeStream(node, take);
  } else if (event.req.body) {
    const reader = event.req.body.getReader();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) take(read.value);
    } catch (error) {
      await reader.cancel();
      throw error;
    }
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}

/**
 * Feeds each chunk of a Node request to `take` until the end. Listeners rather than `for await`:
 * the stream's async iterator and its end-of-stream watcher cost ~5 % of a small write request.
 * When `take` throws (the limit), reading stops and the promise rejects with its error.
 */
function readNodeStream(stream: Readable, take: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // Already read to the end (nothing more will come): there is no 'end' left to wait for.
    if (stream.readableEnded) return resolve();
    const finish = (error?: unknown) => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      stream.off("close", onClose);
      if (error === undefined) resolve();
      else {
        stream.pause();
        reject(error);
      }
    };
    const onData = (chunk: Buffer) => {
      try {
        take(chunk);
      } catch (error) {
        finish(error);
      }
    };
    const onEnd = () => finish();
    const onError = (error: unknown) => finish(isConnectionLoss(error) ? new ClientClosedRequest() : error);
    // The client went away before the body ended.
    const onClose = () => finish(new ClientClosedRequest());
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    stream.on("close", onClose);
  });
}

/**
 * Reads and validates a JSON body: 415 unless it is JSON, 413 over the limit, 400 when it does not
 * parse, 422 listing every violation. Returns the parsed, typed value.
 */
export async function readJson<S extends z.ZodType>(
  event: H3Event,
  schema: S,
  options: ReadJsonOptions,
): Promise<z.output<S>> {
  const contentType = event.req.headers.get("content-type");
  const bytes = await readLimited(event, options.limitBytes);
  let value: unknown;
  if (bytes.byteLength === 0 && options.optional) {
    value = {};
  } else {
    if (!isJsonType(contentType))
      throw new ApiProblem(
        "unsupported-media-type",
        `Send the body as application/json${contentType ? `, not ${contentType.split(";")[0]}` : ""}.`,
      );
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch (error) {
      const reason = error instanceof SyntaxError ? error.message : "it is not valid UTF-8";
      throw new ApiProblem("malformed-json", `The body is not valid JSON: ${reason}`);
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) throw validationProblem(violationsOf(result.error));
  return result.data;
}
