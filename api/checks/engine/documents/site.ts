import { gunzipSync } from "node:zlib";
import type { ScanResponse } from "../fetch/fetcher.ts";
import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { htmlLinks } from "../parse/html.ts";
import { type HeaderLink, parseLinkHeader } from "../parse/link-header.ts";
import { type LlmsTxt, parseLlmsTxt } from "../parse/llms-txt.ts";
import { bodyLooksLikeHtml, isSuccess, mediaTypeOf } from "../parse/media-type.ts";
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

const MAX_SITEMAP_BYTES = 5_000_000;

export interface LoadedSitemap {
  document: FetchedDocument;
  /** Where the sitemap's URL came from. */
  source: "robots" | "default";
  parsed: SitemapParseResult | null;
}

/** The first sitemap robots.txt names (RFC 9309 `Sitemap:`), else `/sitemap.xml`. */
export async function loadSitemap(context: DocumentContext, robots: Robots | null): Promise<LoadedSitemap> {
  const declared = (robots?.sitemaps ?? []).flatMap((value) => (URL.canParse(value) ? [new URL(value).href] : []));
  const sameHost = declared.find((url) => new URL(url).host === context.target.root.host) ?? declared[0];
  const url = sameHost ?? pathUrl(context, "/sitemap.xml");
  const document = await fetchDocument(context, url, "application/xml, text/xml;q=0.9, */*;q=0.1");
  return {
    document,
    source: sameHost === undefined ? "default" : "robots",
    parsed: document.state === "fallback" ? null : parseSitemapBody(document),
  };
}

function parseSitemapBody(document: FetchedDocument): SitemapParseResult | null {
  if (!isSuccess(document.response)) return null;
  const { response } = document;
  const gzipped =
    /gzip/.test(mediaTypeOf(response)) || (new URL(response.url).pathname.endsWith(".gz") && response.body[0] === 0x1f);
  if (!gzipped) return parseSitemap(response.text);
  try {
    return parseSitemap(gunzipSync(response.body, { maxOutputLength: MAX_SITEMAP_BYTES }).toString("utf8"));
  } catch (error) {
    return {
      ok: false,
      error: `the gzip sitemap does not inflate: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
