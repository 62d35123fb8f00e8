import type { H3 } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { siteUrl, validateAgainstPublishedSchema } from "../../helpers/site.ts";

let app: H3;
let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
  app = testApp.app;
});
afterAll(() => testApp.close());
const get = (path: string, headers: Record<string, string> = {}) => Promise.resolve(app.request(path, { headers }));

describe("serving the built site", () => {
  it.each([
    ["/api/v1/docs", "application/json", "doc-index"],
    ["/api/v1/docs/store/downloads", "application/json", "doc-page"],
    ["/api/v1/docs/reference/errors/problem-types/validation-failed", "application/json", "doc-page"],
    ["/api/v1/policies", "application/json", "policy-index"],
    ["/api/v1/policies/privacy", "application/json", "policy-page"],
    ["/api/v1/articles", "application/json", "article-index"],
    ["/api/v1/records", "application/json", "record-index"],
    ["/api/v1/records/scanner-landscape", "application/json", "record-page"],
    ["/api/v1/resources", "application/json", "resource-index"],
    ["/api/v1/products", "application/json", "product-index"],
    ["/api/v1/store/categories", "application/json", "category-index"],
    ["/capabilities.json", "application/json", "capabilities"],
    ["/pricing.json", "application/json", "pricing"],
    ["/terms.json", "application/json", "terms"],
    ["/roadmap.json", "application/json", "roadmap"],
    ["/agents.json", "application/json", "agents"],
    ["/.well-known/service-state.json", "application/json", "service-state"],
  ])("%s answers %s matching its published schema %s", async (path, type, schema) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(validateAgainstPublishedSchema(schema, await response.json())).toEqual([]);
  });

  it("serves scripts under the pages' CSP, so the search worker may fetch its index and compile WebAssembly", async () => {
    const worker = await get("/pagefind/pagefind-worker.js");
    expect(worker.status).toBe(200);
    expect(worker.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const policy = worker.headers.get("content-security-policy") ?? "";
    expect(policy).toContain("default-src 'self'");
    expect(policy).toMatch(/script-src [^;]*'wasm-unsafe-eval'/);
    const page = await get("/docs/quickstart");
    expect(page.headers.get("content-security-policy")).toBe(policy);
  });

  it("lists doc index entries without bodies, and pages with their body and versions", async () => {
    const index = (await (await get("/api/v1/docs")).json()) as { data: Record<string, unknown>[] };
    expect(index.data.length).toBeGreaterThanOrEqual(12);
    expect(index.data.every((entry) => !("body" in entry))).toBe(true);
    const page = (await (await get("/api/v1/docs/reference/rate-limits")).json()) as {
      body: string;
      versions: { version: string; superseded_at: string | null; url: string }[];
    };
    expect(page.body.length).toBeGreaterThan(100);
    expect(page.versions[0]?.superseded_at).toBeNull();
    const archived = page.versions[1];
    expect(archived?.superseded_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    const old = await get(new URL(archived?.url ?? "").pathname);
    expect(old.status).toBe(200);
    expect(((await old.json()) as { version: string }).version).toBe(archived?.version);
  });

  it("serves doc pages as HTML with the version and a link to the Markdown", async () => {
    const response = await get("/docs/store");
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await response.text();
    expect(html).toMatch(/Version <code>store-\d{4}-\d{2}-\d{2}<\/code>/);
    expect(html).toContain('href="/docs/store.md"');
    expect(html).toContain('aria-label="Documentation"');
  });

  it("negotiates Markdown on doc pages and says so with Vary", async () => {
    const html = await get("/docs/store", { accept: "text/html" });
    expect(html.headers.get("vary")).toBe("Accept");
    const markdown = await get("/docs/store", { accept: "text/markdown, text/html;q=0.9" });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(markdown.headers.get("vary")).toBe("Accept");
    expect(await markdown.text()).toMatch(/^> Documentation index: .*\n\n# Store/);
    const browser = await get("/docs/store", { accept: "text/html,application/xhtml+xml,*/*;q=0.8" });
    expect(browser.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const twin = await get("/docs/store.md");
    expect(twin.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await twin.text()).toBe(await (await get("/docs/store", { accept: "text/markdown" })).text());
  });

  it("answers a revalidation with 304 and no body, and a changed ETag with 200", async () => {
    for (const path of ["/api/v1/docs", "/docs/store", "/llms.txt", "/.well-known/api-catalog"]) {
      const first = await get(path);
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await get(path, { "if-none-match": etag ?? "" });
      expect(again.status, path).toBe(304);
      expect(await again.text()).toBe("");
      expect((await get(path, { "if-none-match": '"stale"' })).status).toBe(200);
    }
  });

  it("sends CORS and cache policies: docs at most 60 s, discovery an hour, live documents revalidated", async () => {
    const docs = await get("/api/v1/docs/store");
    expect(docs.headers.get("access-control-allow-origin")).toBe("*");
    expect(docs.headers.get("cache-control")).toBe("public, max-age=60");
    expect((await get("/docs/store")).headers.get("cache-control")).toBe("public, max-age=60");
    expect((await get("/docs/store")).headers.get("access-control-allow-origin")).toBeNull();
    expect((await get("/.well-known/api-catalog")).headers.get("cache-control")).toBe("public, max-age=3600");
    expect((await get("/capabilities.json")).headers.get("cache-control")).toBe("no-cache");
    const preflight = await app.request("/api/v1/agents/waitlist", {
      method: "OPTIONS",
      headers: { origin: "https://agent.example", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("sends security headers on every response: the document set on pages, the API set on the rest", async () => {
    for (const response of [await get("/"), await get("/docs/store"), await get("/nope")]) {
      expect(response.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(response.headers.get("cross-origin-opener-policy")).toBe("same-origin");
    }
    for (const response of [
      await get("/api/v1/docs"),
      await get("/api/v1/nope"),
      await get("/llms.txt"),
      await app.request("/health"),
    ]) {
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    for (const response of [
      await get("/"),
      await get("/api/v1/docs"),
      await get("/api/v1/nope"),
      await get("/nope"),
      await app.request("/health"),
    ]) {
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
  });

  it("answers HEAD on the server's own GET endpoints like GET, without a body", async () => {
    const reportId = "00000000-0000-4000-8000-000000000000";
    for (const [path, status] of [
      ["/health", 200],
      ["/status.json", 200],
      ["/api/v1/config", 200],
      ["/api/v1/tools", 200],
      ["/api/v1/agents/me", 401],
      [`/api/v1/checks/${reportId}`, 404],
      ["/api/v1/store/sessions/cs_test_nosuch", 503],
    ] as const) {
      const [got, head] = [await app.request(path), await app.request(path, { method: "HEAD" })];
      expect([path, got.status, head.status]).toEqual([path, status, status]);
      expect(head.headers.get("content-type")).toBe(got.headers.get("content-type"));
      expect(await head.text()).toBe("");
    }
  });

  it("points agents at the catalog, API description, docs and Markdown from the home page", async () => {
    const link = (await get("/")).headers.get("link") ?? "";
    expect(link).toContain('</.well-known/api-catalog>; rel="api-catalog"');
    expect(link).toContain('rel="service-doc"');
    expect(link).toContain('</llms.txt>; rel="describedby"');
    expect(link).toContain('</index.md>; rel="alternate"; type="text/markdown"');
  });

  it("names agents.json and the agent skills index in the home page's Link header, and both answer", async () => {
    const link = (await get("/")).headers.get("link") ?? "";
    expect(link).toContain('</agents.json>; rel="service-meta"; type="application/json"; title="Agent entry points"');
    expect(link).toContain(
      '</.well-known/agent-skills/index.json>; rel="service-doc"; type="application/json"; title="Agent skills index"',
    );
    for (const target of ["/agents.json", "/.well-known/agent-skills/index.json"]) {
      const response = await get(target);
      expect([target, response.status, response.headers.get("content-type")]).toEqual([
        target,
        200,
        "application/json",
      ]);
    }
  });

  it("negotiates Markdown on the docs home too", async () => {
    const response = await get("/docs", { accept: "text/markdown" });
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await response.text()).toMatch(/^# .* documentation/);
  });

  it("names the api-catalog with rel=api-catalog, also in answer to HEAD (RFC 9727 §2)", async () => {
    const head = await app.request("/.well-known/api-catalog", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("link")).toBe('</.well-known/api-catalog>; rel="api-catalog"');
  });

  it("answers HEAD with the headers and no body", async () => {
    const response = await app.request("/api/v1/docs", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(100);
    expect(await response.text()).toBe("");
  });
});

describe("addresses that are not published", () => {
  it.each([
    "/api/v1/docs/no-such-page",
    "/api/v1/docs/store/nothing",
    "/api/v1/policies/no-such-policy",
    "/api/v1/articles/no-such-article",
    "/api/v1/records/no-such-record",
    "/schemas/no-such-schema.json",
    "/api/v1/anything",
    "/docs/a/b/c/d/e",
    "/api/v1/docs/a/b/c/d/e",
  ])("%s answers a 404 problem", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const body = await response.json();
    expect(validateAgainstPublishedSchema("problem", body)).toEqual([]);
    expect(body).toMatchObject({
      status: 404,
      code: "not-found",
      instance: path,
      type: `${siteUrl()}/problems/not-found`,
    });
  });

  it("answers the HTML 404 page for other unknown paths, or Markdown when asked", async () => {
    const html = await get("/docs/no-such-page");
    expect(html.status).toBe(404);
    expect(await html.text()).toContain("Nothing here");
    const markdown = await get("/no-such-page", { accept: "text/markdown" });
    expect(markdown.status).toBe(404);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  });

  it("counts misses under /api/ against a per-address limit and says so in RateLimit headers", async () => {
    const response = await get("/api/v1/__nonexistent__");
    expect(response.status).toBe(404);
    expect(response.headers.get("ratelimit-policy")).toBe('"api-misses";q=300;w=60');
    expect(response.headers.get("ratelimit")).toMatch(/^"api-misses";r=\d+;t=\d+$/);
  });

  it("answers 405 with Allow for a method a URL does not take", async () => {
    const response = await app.request("/api/v1/docs", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ code: "method-not-allowed", status: 405 });
  });

  it("redirects a trailing slash to the canonical address", async () => {
    const response = await get("/docs/store/");
    expect(response.status).toBe(301);
    expect(response.headers.get("location")).toBe("/docs/store");
  });

  it("answers 503 problems, not a crash, when there is no build", async () => {
    const bare = await createTestApp({ site: null });
    const response = await bare.app.request("/api/v1/docs");
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: "service-unavailable" });
    expect(response.headers.get("retry-after")).toBe("30");
    expect((await bare.app.request("/health")).status).toBe(200);
    await bare.close();
  });
});
