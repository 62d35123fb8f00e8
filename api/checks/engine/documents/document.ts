import type { EvidenceTrail } from "../evidence.ts";
import type { ScanResponse } from "../fetch/fetcher.ts";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { bodyDigest } from "../fetch/scan-response.ts";
import type { CheckTarget } from "../fetch/target.ts";
import { type JsonParseResult, parseJson } from "../parse/json.ts";
import { answersUsefully, isHtmlResponse, isSuccess, mediaTypeOf } from "../parse/media-type.ts";

export interface DocumentContext {
  target: CheckTarget;
  trail: EvidenceTrail;
  /** Digests of the 2xx bodies the site serves for paths that cannot exist (see http.soft404). */
  fallbacks: ReadonlySet<string>;
}

/**
 * - found: a 2xx that is not an HTML page standing in for the document
 * - missing: a 4xx (RFC 9309 reads a missing robots.txt the same way)
 * - fallback: a 2xx that is not the document: an HTML page where JSON/text/XML was expected, or the very body the site
 *   serves for paths that cannot exist (an SPA shell or catch-all; http.soft404's probes provide the fingerprints)
 * - broken: a 5xx; a redirect the scan would not follow (a loop, too many hops, a private address); a body over the
 *   size cap (an oversize file or a decompression bomb); or a text document that is not UTF-8 (RFC 8259 §8.1,
 *   RFC 9309 §2.2, sitemaps.org, llmstxt.org all require it)
 */
export type DocumentState = "found" | "missing" | "fallback" | "broken";

export interface FetchedDocument {
  url: string;
  response: ScanResponse;
  state: DocumentState;
}

export interface JsonDocument extends FetchedDocument {
  /** Set when the document was found. */
  json: JsonParseResult | null;
}

/** The body is what the site answers for a path that cannot exist. */
export function isFallbackBody(context: DocumentContext, response: ScanResponse): boolean {
  return isSuccess(response) && context.fallbacks.size > 0 && context.fallbacks.has(bodyDigest(response));
}

/** A linked target answers with something real: 2xx, not an HTML page at a document path, not the site's fallback body. */
export function targetAnswers(context: DocumentContext, response: ScanResponse): boolean {
  return answersUsefully(response) && !isFallbackBody(context, response);
}

export function classifyResponse(
  context: DocumentContext,
  response: ScanResponse,
  options: { htmlExpected?: boolean } = {},
): DocumentState {
  if (response.status >= 200 && response.status < 300) {
    // A page may be large and in any charset; its size and encoding are not what makes it the homepage.
    if (options.htmlExpected === true) return "found";
    if (isHtmlResponse(response) || isFallbackBody(context, response)) return "fallback";
    return response.fault !== null || response.invalidUtf8At !== null ? "broken" : "found";
  }
  if (response.fault !== null) return "broken";
  if (response.status >= 400 && response.status < 500) return "missing";
  return "broken";
}

export function pathUrl(context: Pick<DocumentContext, "target">, path: string): string {
  return new URL(path, context.target.root).href;
}

export async function fetchDocument(context: DocumentContext, url: string, accept: string): Promise<FetchedDocument> {
  const response = await context.trail.get(url, { accept });
  return { url, response, state: classifyResponse(context, response) };
}

/**
 * The first candidate the site really serves, in the order of its spec generations. A location that is missing, is
 * the site's fallback page, is broken, or does not answer at all never stops the probe of the next one (DESIGN §8).
 * When none is found, the first location that said something (broken over fallback over missing) is reported, and a
 * location that did not answer is thrown only when no other location answered.
 */
export async function firstPresent(
  context: DocumentContext,
  urls: readonly string[],
  accept: string,
): Promise<FetchedDocument> {
  const answered: FetchedDocument[] = [];
  let failure: ScanFetchError | null = null;
  for (const url of urls) {
    try {
      const document = await fetchDocument(context, url, accept);
      if (document.state === "found") return document;
      answered.push(document);
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
      failure ??= error;
    }
  }
  const rank: Record<DocumentState, number> = { broken: 0, fallback: 1, missing: 2, found: 3 };
  const best = [...answered].sort((left, right) => rank[left.state] - rank[right.state])[0];
  if (best !== undefined && (failure === null || best.state !== "missing")) return best;
  if (failure !== null) throw failure;
  throw new Error("firstPresent needs at least one candidate");
}

export async function fetchJsonDocument(context: DocumentContext, url: string, accept: string): Promise<JsonDocument> {
  const document = await fetchDocument(context, url, accept);
  return withJson(document);
}

export function withJson(document: FetchedDocument): JsonDocument {
  return { ...document, json: document.state === "found" ? parseJson(document.response.text) : null };
}

/**
 * An optional surface the site does not have: a 4xx, or the site's fallback page standing in for it. The fallback is
 * one root cause, charged once to http.soft404 (DESIGN §8), so the optional checks behind it are n/a, not fails.
 */
export function absence(document: FetchedDocument, name: string): string | null {
  if (document.state === "missing")
    return `no ${name} (${document.response.status} at ${new URL(document.url).pathname})`;
  if (document.state === "fallback")
    return `no ${name}: ${new URL(document.url).pathname} answers the site's fallback page (charged once, to http.soft404)`;
  return null;
}

/** A one-line account of why a document is not usable. */
export function describeState(document: FetchedDocument, name: string): string {
  const { response } = document;
  const where = new URL(document.url).pathname;
  switch (document.state) {
    case "found":
      return `${name} answers ${response.status} ${mediaTypeOf(response) || "without a Content-Type"}`;
    case "missing":
      return `${name} is missing (${response.status} at ${where})`;
    case "fallback":
      return isHtmlResponse(response)
        ? `${name} answers ${response.status} with an HTML page (an SPA fallback or soft 404), not the document`
        : `${name} answers ${response.status} with the same body as a path that cannot exist (a catch-all), not the document`;
    case "broken":
      if (response.fault !== null) return `${name} is unusable: ${response.fault.message}`;
      if (response.invalidUtf8At !== null && isSuccess(response))
        return `${name} is not valid UTF-8 (the first bad byte is at offset ${response.invalidUtf8At})`;
      return response.status >= 300 && response.status < 400
        ? `${name} answers ${response.status} without a usable Location`
        : `${name} answers ${response.status} at ${where}`;
  }
}

export const ACCEPT_JSON = "application/json";
export const ACCEPT_TEXT = "text/plain, text/markdown;q=0.9, */*;q=0.1";
export const ACCEPT_HTML = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8";
