import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cdnFiles, fileForUrl, type RouteManifest, urlForHtmlFile } from "../../src/lib/manifest.ts";
import { CACHE_CONTROL } from "../../src/lib/outputs/artifact.ts";
import { testBuild } from "../helpers/test-build.ts";

const { distDir } = testBuild();
const manifest = JSON.parse(readFileSync(join(distDir, "manifest.json"), "utf8")) as RouteManifest;

describe("the route manifest", () => {
  it("maps every public URL to a file that exists, with its type, cache policy and ETag", () => {
    const routes = Object.entries(manifest.routes);
    expect(routes.length).toBeGreaterThan(150);
    for (const [url, route] of routes) {
      expect(existsSync(join(distDir, "client", route.file)), url).toBe(true);
      expect(route.etag, url).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(route.bytes, url).toBe(readFileSync(join(distDir, "client", route.file)).length);
    }
  });

  it("lets documentation be cached for at most 60 seconds", () => {
    const docRoutes = Object.entries(manifest.routes).filter(
      ([url]) => url.startsWith("/docs/") || url.startsWith("/api/v1/docs"),
    );
    expect(docRoutes.length).toBeGreaterThan(40);
    for (const [url, route] of docRoutes) {
      const maxAge = Number(/max-age=(\d+)/.exec(CACHE_CONTROL[route.cache])?.[1]);
      expect(maxAge, url).toBeLessThanOrEqual(60);
    }
  });

  it("marks the documents that reflect runtime state as live", () => {
    const live = Object.entries(manifest.routes)
      .filter(([, route]) => route.live)
      .map(([url]) => url)
      .sort();
    // The AI catalog and the MCP card follow the `mcp` switch; the card is the same document at three addresses.
    // The product index offers a checkout address only while a checkout can start. The Web Bot Auth key
    // directory publishes the running service's keys, with a proof signed per response.
    expect(live).toEqual([
      "/.well-known/ai-catalog.json",
      "/.well-known/ard.json",
      "/.well-known/http-message-signatures-directory",
      "/.well-known/mcp.json",
      "/.well-known/mcp/server-card.json",
      "/.well-known/service-state.json",
      "/agents.json",
      "/api/v1/products",
      "/capabilities.json",
      "/mcp/server-card",
      "/pricing.json",
    ]);
  });

  it("lists the docs search index: opaque bytes, content-hashed chunks cached for a year, the rest revalidated", () => {
    const search = Object.entries(manifest.routes).filter(([url]) => url.startsWith("/pagefind/"));
    const chunks = search.filter(([url]) => /\.pf_(meta|index|fragment)$/.test(url));
    // One fragment per indexed page: every current doc page, no archived version.
    const docPages = Object.keys(manifest.routes).filter((url) => url.startsWith("/docs/") && !url.endsWith(".md"));
    expect(chunks.filter(([url]) => url.endsWith(".pf_fragment"))).toHaveLength(docPages.length);
    for (const [url, route] of chunks) {
      expect(route.type, url).toBe("application/octet-stream");
      expect(route.cache, url).toBe("asset");
    }
    expect(manifest.routes["/pagefind/pagefind-entry.json"]).toMatchObject({ type: "application/json", cache: "page" });
    expect(manifest.routes["/pagefind/wasm.en.pagefind"]).toMatchObject({
      type: "application/octet-stream",
      cache: "page",
    });
    expect(manifest.routes["/pagefind/pagefind-component-ui.js"]?.type).toBe("text/javascript; charset=utf-8");
  });

  it("stores a URL that is both a leaf and a prefix as separate files", () => {
    expect(manifest.routes["/api/v1/docs"]?.file).toBe("api/v1/docs.json");
    expect(manifest.routes["/api/v1/docs/store"]?.file).toBe("api/v1/docs/store.json");
    expect(manifest.routes["/api/v1/docs/store/downloads"]?.file).toBe("api/v1/docs/store/downloads.json");
    expect(manifest.routes["/.well-known/api-catalog"]?.file).toBe(".well-known/api-catalog.json");
  });
});

describe("URL and file mapping", () => {
  it.each([
    ["/", "text/html; charset=utf-8", "index.html"],
    ["/llms.txt", "text/plain; charset=utf-8", "llms.txt"],
    ["/docs/store.md", "text/markdown; charset=utf-8", "docs/store.md"],
    ["/api/v1", "application/json", "api/v1.json"],
    ["/schemas/check-input.json", "application/schema+json", "schemas/check-input.json"],
  ])("%s is stored as %s → %s", (url, type, file) => {
    expect(fileForUrl(url, type)).toBe(file);
  });

  it("reads Astro's HTML files back as URLs, and skips the 404 page", () => {
    expect(urlForHtmlFile("docs/store/downloads.html")).toBe("/docs/store/downloads");
    expect(urlForHtmlFile("index.html")).toBe("/");
    expect(urlForHtmlFile("404.html")).toBeNull();
  });
});

describe("files for a CDN", () => {
  const { headers, redirects } = cdnFiles(manifest, "https://api.example.com");

  it("rewrites extension-less URLs to their files and proxies live URLs and the API to the origin", () => {
    expect(redirects).toContain("/api/v1/docs /api/v1/docs.json 200");
    expect(redirects).toContain("/.well-known/api-catalog /.well-known/api-catalog.json 200");
    expect(redirects).toContain("/capabilities.json https://api.example.com/capabilities.json 200");
    expect(redirects).toContain("/api/* https://api.example.com/api/:splat 200");
    // Static API documents must match before the API catch-all.
    expect(redirects.indexOf("/api/v1/docs ")).toBeLessThan(redirects.indexOf("/api/* "));
  });

  it("gives each file its type, cache policy and CORS, and every page the security headers", () => {
    expect(headers).toMatch(/^\/\*\n {2}X-Content-Type-Options: nosniff/);
    expect(headers).toContain(
      "/.well-known/api-catalog\n  Cache-Control: public, max-age=3600\n  Access-Control-Allow-Origin: *",
    );
    expect(headers).toContain(
      'Content-Type: application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    // A file whose type is not its extension's (openapi.json) carries the type for the CDN.
    expect(headers).toMatch(/\n\/openapi\.json\n(?: {2}.*\n)*? {2}Content-Type: application\/vnd\.oai\.openapi\+json/);
  });

  it("says Vary: Accept-Encoding on exactly the files the build precompressed", () => {
    const blocks = new Map(headers.split(/\n(?=\/)/).map((block) => [block.split("\n")[0] ?? "", block] as const));
    const served = Object.entries(manifest.routes).filter(([, route]) => !route.live);
    const coded = served.filter(([, route]) => route.encodings);
    expect(coded.length).toBeGreaterThan(100);
    for (const [url, route] of served)
      expect(blocks.get(url)?.includes("\n  Vary: Accept-Encoding"), url).toBe(route.encodings !== undefined);
  });

  it("records each precompressed copy with its size and an ETag of its own", () => {
    for (const [url, route] of Object.entries(manifest.routes)) {
      for (const encoded of Object.values(route.encodings ?? {})) {
        expect(readFileSync(join(distDir, "client", encoded.file)).length, url).toBe(encoded.bytes);
        expect(encoded.bytes, url).toBeLessThan(route.bytes);
        expect(encoded.etag, url).not.toBe(route.etag);
      }
    }
  });
});
