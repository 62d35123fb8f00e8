import type { ScanResponse } from "../fetch/fetcher.ts";

/** The `type/subtype` of a Content-Type, lower case, without parameters; "" when absent. */
export function mediaTypeOf(response: Pick<ScanResponse, "headers">): string {
  return mediaTypeEssence(response.headers["content-type"] ?? "");
}

export function mediaTypeEssence(value: string): string {
  return (value.split(";")[0] ?? "").trim().toLowerCase();
}

/** Parameters of a media type (RFC 9110 §8.3.1), names lower case, quotes removed. */
export function mediaTypeParameters(value: string): Record<string, string> {
  const parameters: Record<string, string> = {};
  for (const part of value.split(";").slice(1)) {
    const separator = part.indexOf("=");
    if (separator === -1) continue;
    const name = part.slice(0, separator).trim().toLowerCase();
    const raw = part.slice(separator + 1).trim();
    parameters[name] = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  }
  return parameters;
}

export function isJsonMediaType(essence: string): boolean {
  return essence === "application/json" || essence.endsWith("+json");
}

export function isMarkdownMediaType(essence: string): boolean {
  return essence === "text/markdown" || essence === "text/x-markdown";
}

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i;

/** Whether a body is an HTML page, whatever the Content-Type says (an SPA fallback often lies). */
export function bodyLooksLikeHtml(text: string): boolean {
  return HTML_START.test(text.slice(0, 2_000));
}

/** An HTML page where a JSON, text, XML or Markdown document was expected: an SPA fallback or a soft 404. */
export function isHtmlResponse(response: ScanResponse): boolean {
  const essence = mediaTypeOf(response);
  return essence === "text/html" || essence === "application/xhtml+xml" || bodyLooksLikeHtml(response.text);
}

export function isSuccess(response: Pick<ScanResponse, "status">): boolean {
  return response.status >= 200 && response.status < 300;
}

const DOCUMENT_PATH = /(\.(json|txt|md|mdx|xml|ya?ml)$)|(^\/\.well-known\/)/i;

/**
 * A target answers usefully: 2xx, and not an HTML page at a path that names a document (.json, .txt, .md, .xml,
 * .yaml, /.well-known/): that is an SPA fallback answering for something that does not exist.
 */
export function answersUsefully(response: ScanResponse): boolean {
  if (!isSuccess(response)) return false;
  return !(DOCUMENT_PATH.test(new URL(response.requestUrl).pathname) && isHtmlResponse(response));
}

/** What a link target answered, in a few words: its status, and what was wrong with it when the scan recorded that. */
export function describeAnswer(response: ScanResponse): string {
  if (response.fault !== null) return `${response.status}, ${response.fault.message.replace(/^\S+ /, "")}`;
  return isSuccess(response) ? `${response.status} HTML` : String(response.status);
}
