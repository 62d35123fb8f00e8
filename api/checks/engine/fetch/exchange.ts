import { isUtf8 } from "node:buffer";
import { type Agent, fetch } from "undici";
import type { CheckerLimits } from "../settings.ts";
import { readLimitedBody } from "./read-body.ts";
import { firstInvalidUtf8, oversize } from "./response-fault.ts";
import { ScanFetchError, toScanFetchError } from "./scan-fetch-error.ts";
import type { ScanMethod, ScanResponse } from "./scan-response.ts";

/** One request and its answer, before the fetcher follows redirects. */
export type Hop = Omit<ScanResponse, "method" | "requestUrl" | "redirects" | "requestHeaders">;

export interface ExchangeOptions {
  /** Connects only to the addresses the scan vetted. */
  agent: Agent;
  /** The whole scan's time budget. */
  deadline: AbortSignal;
  limits: CheckerLimits;
  deadlineError(href: string): ScanFetchError;
}

/**
 * Sends one request to a vetted destination and reads at most the size cap of its body within the per-request time
 * limit. A 429 throws `rate-limited` (the fetcher then stops the scan); a body past the cap is kept, marked too large.
 */
export async function exchange(
  request: { method: ScanMethod; href: string; headers: Record<string, string>; body: string | undefined },
  options: ExchangeOptions,
): Promise<Hop> {
  const { method, href } = request;
  const { limits } = options;
  const perRequest = new AbortController();
  const timer = setTimeout(() => perRequest.abort(), limits.requestTimeoutMs);
  const signal = AbortSignal.any([perRequest.signal, options.deadline]);
  try {
    const response = await fetch(href, {
      method,
      headers: request.headers,
      body: request.body ?? null,
      redirect: "manual",
      dispatcher: options.agent,
      signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    if (response.status === 429) {
      await response.body?.cancel().catch(() => undefined);
      const retryAfter = headers["retry-after"];
      throw new ScanFetchError(
        "rate-limited",
        `the site answered 429 Too Many Requests${retryAfter === undefined ? "" : ` (Retry-After: ${retryAfter})`}, so the scan stopped asking`,
        href,
        { status: 429, headers },
      );
    }
    const read =
      method === "HEAD"
        ? { bytes: Buffer.alloc(0), truncated: false }
        : await readLimitedBody(response.body, limits.maxResponseBytes, () => perRequest.abort());
    const invalidAt = isUtf8(read.bytes) ? -1 : firstInvalidUtf8(read.bytes);
    return {
      url: href,
      status: response.status,
      headers,
      body: read.bytes,
      text: read.bytes.toString("utf8"),
      // A body cut at the cap may end inside a character: only what came before the cut counts.
      invalidUtf8At: invalidAt === -1 || (read.truncated && invalidAt > read.bytes.length - 4) ? null : invalidAt,
      fault: read.truncated ? oversize(href, limits.maxResponseBytes, headers) : null,
    };
  } catch (error) {
    if (error instanceof ScanFetchError) throw error;
    if (options.deadline.aborted) throw options.deadlineError(href);
    if (perRequest.signal.aborted) {
      throw new ScanFetchError("timeout", `${href} did not answer within ${limits.requestTimeoutMs / 1000} s`, href);
    }
    throw toScanFetchError(error, href);
  } finally {
    clearTimeout(timer);
  }
}
