import { isUtf8 } from "node:buffer";
import { gunzipSync } from "node:zlib";
import { formatBytes } from "../../../../src/lib/format-bytes.ts";
import type { ScanResponse } from "../fetch/fetcher.ts";
import { firstInvalidUtf8 } from "../fetch/response-fault.ts";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { htmlLinks } from "../parse/html.ts";
import { type HeaderLink, parseLinkHeader } from "../parse/link-header.ts";
import { type LlmsTxt, parseLlmsTxt } from "../parse/llms-txt.ts";
import { bodyLooksLikeHtml, isSuccess } from "../parse/media-type.ts";
import { parseRobots, type Robots } from "../parse/robots.ts";
import { parseSitemap, type SitemapParseResult } from "../parse/sitemap.ts";
import {
  ACCEPT_HTML,
  ACCEPT_TEXT,
  classifyResponse,
  type DocumentContext,
  type FetchedDocument,
  fetchDocument,
  firstPresent,
  isFallbackBody,
  pathUrl,
} from "./document.ts";

export async function loadHome(context: DocumentContext): Promise<FetchedDocument> {
  const response = await context.trail.get(context.target.root, { accept: ACCEPT_HTML });
  return {
    url: context.target.root.href,
    response,
    state: classifyResponse(context, response, { htmlExpected: true }),
  };
}

/**
 * A text document whose body is readable even when its Content-Type is wrong (the check reports the type); not one
 * cut at the size cap or broken in its encoding (the check that owns the document reports that, once).
 */
function readableText(context: DocumentContext, document: FetchedDocument): string | null {
  const { response } = document;
  if (response.fault !== null || response.invalidUtf8At !== null) return null;
  return isSuccess(response) && !bodyLooksLikeHtml(response.text) && !isFallbackBody(context, response)
    ? response.text
    : null;
}

/** RFC 9309 §2.5: crawlers parse at least the first 500 KiB; a file may be longer, but nothing past that counts. */
export const ROBOTS_PARSE_LIMIT = 500 * 1024;

export async function loadRobots(
  context: DocumentContext,
): Promise<{ document: FetchedDocument; robots: Robots | null }> {
  const document = await fetchDocument(context, pathUrl(context, "/robots.txt"), ACCEPT_TEXT);
  const { response } = document;
  // Crawlers read an oversize or mis-encoded robots.txt all the same, so the rules are judged as they would be.
  const readable = isSuccess(response) && !bodyLooksLikeHtml(response.text) && !isFallbackBody(context, response);
  return {
    document,
    robots: readable ? parseRobots(response.body.subarray(0, ROBOTS_PARSE_LIMIT).toString("utf8")) : null,
  };
}

/** A page's links, from its `Link` header and its `<head>` (llms.txt v2 allows either for its relations). */
export function pageLinks(response: ScanResponse): Array<Pick<HeaderLink, "href" | "rels" | "type">> {
  return [...parseLinkHeader(response.headers.link, response.url), ...htmlLinks(response.text, response.url)];
}

/** The llms.txt files a page names with `rel="describedby"` (llms.txt v2), same-origin ones only. */
export function describedByLlmsTxt(context: DocumentContext, response: ScanResponse): string[] {
  return pageLinks(response)
    .filter((link) => link.rels.includes("describedby") && new URL(link.href).pathname.endsWith("/llms.txt"))
    .map((link) => new URL(link.href))
    .filter((url) => url.origin === context.target.origin)
    .map((url) => url.href);
}

/** The homepage's own word for its llms.txt first (llms.txt v2 `describedby`), then the v1 locations. */
async function llmsTxtCandidates(context: DocumentContext): Promise<string[]> {
  let advertised: string[] = [];
  try {
    advertised = describedByLlmsTxt(context, (await loadHome(context)).response);
  } catch (error) {
    if (!(error instanceof ScanFetchError)) throw error;
  }
  return [...new Set([...advertised.slice(0, 1), pathUrl(context, "/llms.txt"), pathUrl(context, "/docs/llms.txt")])];
}

export async function loadLlmsTxt(
  context: DocumentContext,
): Promise<{ document: FetchedDocument; llms: LlmsTxt | null }> {
  const document = await firstPresent(context, await llmsTxtCandidates(context), ACCEPT_TEXT);
  const text = readableText(context, document);
  return { document, llms: text === null ? null : parseLlmsTxt(text) };
}

export async function loadLlmsFull(
  context: DocumentContext,
): Promise<{ document: FetchedDocument; llms: LlmsTxt | null }> {
  const document = await fetchDocument(context, pathUrl(context, "/llms-full.txt"), ACCEPT_TEXT);
  const text = readableText(context, document);
  return { document, llms: text === null ? null : parseLlmsTxt(text) };
}

export async function loadAgentsMd(
  context: DocumentContext,
): Promise<{ document: FetchedDocument; text: string | null }> {
  const document = await fetchDocument(context, pathUrl(context, "/AGENTS.md"), "text/markdown, text/plain;q=0.9");
  return { document, text: readableText(context, document) };
}

export async function loadSecurityTxt(
  context: DocumentContext,
): Promise<{ document: FetchedDocument; text: string | null }> {
  const document = await fetchDocument(context, pathUrl(context, "/.well-known/security.txt"), "text/plain");
  return { document, text: readableText(context, document) };
}

/** How far a gzip-compressed sitemap may inflate: past this it is a decompression bomb or an oversize sitemap. */
const MAX_SITEMAP_BYTES = 5_000_000;
const ACCEPT_SITEMAP = "application/xml, text/xml;q=0.9, */*;q=0.1";

export interface LoadedSitemap {
  document: FetchedDocument;
  /** Where the sitemap's URL came from. */
  source: "robots" | "default";
  parsed: SitemapParseResult | null;
}

/**
 * sitemaps.org lets a sitemap be gzip-compressed (`sitemap.xml.gz`, often named by a sitemap index): the body itself
 * is gzip, not a Content-Encoding the client undoes. It is inflated here within a size cap, so a bomb is recorded as
 * the site's fault (a `fail`), never read as text that is "not valid UTF-8".
 */
export function inflateSitemap(response: ScanResponse): ScanResponse {
  if (response.body[0] !== 0x1f || response.body[1] !== 0x8b) return response;
  try {
    const body = gunzipSync(response.body, { maxOutputLength: MAX_SITEMAP_BYTES });
    return {
      ...response,
      body,
      text: body.toString("utf8"),
      invalidUtf8At: isUtf8(body) ? null : firstInvalidUtf8(body),
    };
  } catch (error) {
    const tooLarge =
      error instanceof RangeError ||
      (error instanceof Error && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE");
    const message = tooLarge
      ? `${response.url} is a gzip-compressed sitemap that inflates past ${formatBytes(MAX_SITEMAP_BYTES)}: a decompression bomb or an oversize sitemap`
      : `${response.url} is gzip-compressed but does not inflate (${error instanceof Error ? error.message : String(error)})`;
    return { ...response, fault: { kind: tooLarge ? "too-large" : "undecodable", message } };
  }
}

/** One sitemap file, inflated when it is gzip-compressed. */
export async function fetchSitemap(context: DocumentContext, url: string): Promise<FetchedDocument> {
  const response = inflateSitemap(await context.trail.get(url, { accept: ACCEPT_SITEMAP }));
  return { url, response, state: classifyResponse(context, response) };
}

/** The first sitemap robots.txt names (RFC 9309 `Sitemap:`), else `/sitemap.xml`. */
export async function loadSitemap(context: DocumentContext, robots: Robots | null): Promise<LoadedSitemap> {
  const declared = (robots?.sitemaps ?? []).flatMap((value) => (URL.canParse(value) ? [new URL(value).href] : []));
  const sameHost = declared.find((url) => new URL(url).host === context.target.root.host) ?? declared[0];
  const url = sameHost ?? pathUrl(context, "/sitemap.xml");
  const document = await fetchSitemap(context, url);
  return {
    document,
    source: sameHost === undefined ? "default" : "robots",
    parsed: document.state === "found" ? parseSitemap(document.response.text) : null,
  };
}
