import { createHash } from "node:crypto";
import type { ContentCoding } from "./compression.ts";
import { HEAD_SCRIPT } from "./head-script.ts";
import { CACHE_CONTROL, type CachePolicy, TYPES } from "./outputs/artifact.ts";

/** How the origin (or a CDN) answers one public URL. */
export interface RouteEntry {
  /** Path of the file under the build's client directory. */
  file: string;
  type: string;
  cache: CachePolicy;
  /** Strong validator of the file's bytes, quoted. */
  etag: string;
  bytes: number;
  /** The origin must answer it from runtime state; the file is only its base. */
  live?: true;
  /**
   * The file's precompressed siblings (`<file>.br`, `<file>.gz`), for a text file over a kilobyte
   * when the coding makes it smaller. Each has its own strong ETag: RFC 9110 §8.8.3 asks a strong
   * validator to differ between content codings of the same resource.
   */
  encodings?: Partial<Record<ContentCoding, EncodedFile>>;
}

/** A precompressed copy of a route's file. */
export interface EncodedFile {
  /** Path under the build's client directory. */
  file: string;
  bytes: number;
  etag: string;
}

export interface RouteManifest {
  version: 1;
  built_at: string;
  /** The SITE_URL and DOCS_URL the build was made for: the server refuses to serve it under others. */
  site_url: string;
  docs_url?: string;
  /** The HTML page for unknown non-API paths. */
  not_found: string;
  routes: Record<string, RouteEntry>;
}

/** The CSP source that allows the head's one inline script and no other (CSP Level 2 hash). */
const HEAD_SCRIPT_HASH = `'sha256-${createHash("sha256").update(HEAD_SCRIPT).digest("base64")}'`;

export function etagOf(bytes: Uint8Array | string): string {
  return `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
}

const EXTENSION_TYPES: Record<string, string> = {
  ".html": TYPES.html,
  ".json": TYPES.json,
  ".md": TYPES.markdown,
  ".txt": TYPES.text,
  ".xml": TYPES.xml,
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".svg": TYPES.svg,
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webmanifest": "application/manifest+json",
  ".woff2": "font/woff2",
  // Pagefind's search bundle: index chunks and WebAssembly it gzips itself and unpacks in the
  // browser, so they go out as opaque bytes (never with a Content-Encoding).
  ".pf_meta": "application/octet-stream",
  ".pf_index": "application/octet-stream",
  ".pf_fragment": "application/octet-stream",
  ".pf_filter": "application/octet-stream",
  ".pagefind": "application/octet-stream",
};

export function typeForFile(file: string): string {
  const extension = /\.[a-z0-9_]+$/.exec(file)?.[0] ?? "";
  return EXTENSION_TYPES[extension] ?? "application/octet-stream";
}

/**
 * Files whose names carry a hash of their bytes may be cached forever: Astro's `_astro/` assets
 * and Pagefind's `.pf_*` chunks. Everything else (Pagefind's entry file, scripts and WebAssembly
 * keep their names across builds) is revalidated like a page.
 */
export function cacheForFile(file: string): CachePolicy {
  return file.startsWith("_astro/") || /\.pf_[a-z]+$/.test(file) ? "asset" : "page";
}

/**
 * The file that holds a URL's bytes. A URL can be both a leaf and a prefix (`/api/v1/docs` and
 * `/api/v1/docs/store`), which a file system cannot hold as a file and a directory, so extension-less
 * URLs are stored as `<url>.json` (or `.html`) and the manifest maps them back.
 */
export function fileForUrl(url: string, type: string): string {
  const path = url.replace(/^\//, "");
  if (url === "/") return "index.html";
  if (/\.[a-z0-9]+$/.test(url) && !url.startsWith("/api/v1/")) return path;
  return type.startsWith("text/html") ? `${path}.html` : `${path}.json`;
}

/** The URL an Astro-built HTML file answers (`docs/store.html` → `/docs/store`). */
export function urlForHtmlFile(file: string): string | null {
  if (file === "404.html") return null;
  if (file === "index.html") return "/";
  if (file.endsWith("/index.html")) return `/${file.slice(0, -"/index.html".length)}`;
  return `/${file.slice(0, -".html".length)}`;
}

/**
 * Security headers for HTML documents. Forms may post to this site and to the hosted checkout; a
 * buy form's 303 to the checkout page is checked against `form-action` too, so a server whose
 * payments point at a local stand-in (STRIPE_API_BASE, never in production) adds that origin.
 * Scripts are files from this site, plus the one inline script in the head, allowed by its hash;
 * `'wasm-unsafe-eval'` lets the docs search compile its WebAssembly (Pagefind's hosting notes).
 */
export function documentSecurityHeaders(
  extraFormActionOrigins: readonly string[] = [],
): Readonly<Record<string, string>> {
  const formAction = ["'self'", "https://checkout.stripe.com", ...extraFormActionOrigins].join(" ");
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Content-Security-Policy": `default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self' ${HEAD_SCRIPT_HASH} 'wasm-unsafe-eval'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'self'`,
  };
}

/**
 * Responses a browser runs under their own policy: documents, and scripts, since a worker's CSP comes
 * from its script's response (the docs search runs in a worker that fetches its index and compiles
 * WebAssembly; the API's `default-src 'none'` would stop it).
 */
export function takesDocumentPolicy(type: string): boolean {
  return type.startsWith("text/html") || type.startsWith("text/javascript");
}

/** The document headers of a site whose checkout is the real provider's (the CDN's `_headers`). */
export const SECURITY_HEADERS = documentSecurityHeaders();

/**
 * For responses that are not documents (JSON, problems, text): what OWASP's REST cheat sheet asks
 * of an API. COOP and Permissions-Policy mean nothing outside a browsing context.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
};

/**
 * Public JSON and text may be read from any origin; cookies are never involved. A browser-based MCP
 * client reads a 401's `WWW-Authenticate` to find where to sign in (RFC 9728 §5.1).
 */
export const CORS_HEADERS: Readonly<Record<string, string>> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, Link, Location, Retry-After, RateLimit, RateLimit-Policy, WWW-Authenticate",
};

export function isCorsType(type: string): boolean {
  return !type.startsWith("text/html");
}

/**
 * `_headers` and `_redirects` in the format Netlify and Cloudflare Pages read: extension-less URLs
 * are rewritten (status 200) to their files, live URLs and the API are proxied to `apiOrigin`.
 */
export function cdnFiles(manifest: RouteManifest, apiOrigin: string): { headers: string; redirects: string } {
  const headerBlocks = [
    ["/*", Object.entries(SECURITY_HEADERS)],
    ["/_astro/*", [["Cache-Control", CACHE_CONTROL.asset]]],
  ] as [string, [string, string][]][];
  const redirects: string[] = [];
  for (const [url, route] of Object.entries(manifest.routes)) {
    if (route.live) {
      redirects.push(`${url} ${apiOrigin}${url} 200`);
      continue;
    }
    const rules: [string, string][] = [["Cache-Control", CACHE_CONTROL[route.cache]]];
    if (isCorsType(route.type)) rules.push(...Object.entries(CORS_HEADERS));
    // The CDN may send the `.br` or `.gz` sibling, or compress itself: either way the answer varies.
    if (route.encodings) rules.push(["Vary", "Accept-Encoding"]);
    if (`/${route.file}` !== url) redirects.push(`${url} /${route.file} 200`);
    // A CDN types a file by its extension: say so when the manifest's type differs (openapi.json is not plain JSON).
    if (`/${route.file}` !== url || route.type !== typeForFile(route.file)) rules.push(["Content-Type", route.type]);
    headerBlocks.push([url, rules]);
  }
  for (const dynamic of [
    "/api/*",
    "/health",
    "/mcp",
    "/mcp/*",
    "/oauth/*",
    "/checks/*",
    "/store/return",
    "/store/buy/*",
  ]) {
    redirects.push(`${dynamic} ${apiOrigin}${dynamic.replace("*", ":splat")} 200`);
  }
  const headers = headerBlocks
    .map(([url, rules]) => `${url}\n${rules.map(([name, value]) => `  ${name}: ${value}`).join("\n")}`)
    .join("\n");
  return { headers: `${headers}\n`, redirects: `${redirects.join("\n")}\n` };
}
