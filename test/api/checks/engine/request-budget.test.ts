import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { page, type StaticDocument, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, settingsFor, statusOf } from "./_helpers.ts";

const POSTS = [1, 2, 3, 4, 5, 6];

/** Each old address moves to its trailing-slash form with a 301, as WordPress and most static hosts answer. */
function moved(path: string) {
  return (origin: string) => ({ status: 301, type: "text/html", body: "", headers: { location: `${origin}${path}/` } });
}

/**
 * The shape of two hold-out sites: an ordinary content site with a sitemap and an llms.txt whose links all redirect
 * once (to their trailing-slash form), checked with a budget the essential fetches fill past its sampling share
 * before the sampling checks get to sample.
 */
function startRedirectingSite(): Promise<FixtureSite> {
  const documents: Record<string, StaticDocument> = {
    "/": page("<main><h1>Notes</h1><p>Posts about the weather.</p></main>"),
    "/robots.txt": (origin) => ({
      type: "text/plain",
      body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`,
    }),
    "/sitemap.xml": (origin) => ({
      type: "application/xml",
      body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${POSTS.map((n) => `<url><loc>${origin}/post/${n}/</loc><lastmod>2026-11-0${n}</lastmod></url>`).join("")}</urlset>`,
    }),
    "/llms.txt": {
      type: "text/plain; charset=utf-8",
      body: `# Notes\n\n> Posts about the weather.\n\n## Docs\n\n${POSTS.map((n) => `- [Doc ${n}](/docs/${n}): part ${n}`).join("\n")}\n`,
    },
  };
  for (const n of POSTS) {
    documents[`/post/${n}/`] = page(`<main><h1>Post ${n}</h1></main>`);
    documents[`/docs/${n}`] = moved(`/docs/${n}`);
    documents[`/docs/${n}/`] = { type: "text/markdown; charset=utf-8", body: `# Doc ${n}\n\nPart ${n}.\n` };
  }
  return startStaticSite(documents);
}

describe("the request budget", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startRedirectingSite();
  });
  afterAll(() => site.close());

  it("gives every sampling check its first sample, redirect included, though essential fetches filled the sampling share", async () => {
    const maxRequests = 46;
    const result = await checkSite(site, { settings: settingsFor(site, { maxRequests }) });
    expect(result.requests).toBeLessThanOrEqual(maxRequests);
    for (const id of ["robots.sitemap", "llms.links-resolve"]) {
      expect(statusOf(result, id), `${id}: ${messageOf(result, id)}`).not.toBe("error");
      expect(messageOf(result, id)).not.toMatch(/no target could be checked/);
    }
  });

  it("samples every sitemap URL it may once the essential fetches are done, instead of leaving requests unused", async () => {
    const result = await checkSite(site);
    expect(statusOf(result, "robots.sitemap")).toBe("pass");
    expect(messageOf(result, "robots.sitemap")).toMatch(/6 URLs on [\d.:]+; 5 sampled answer 2xx(;|$)/);
    expect(statusOf(result, "llms.links-resolve")).toBe("pass");
    expect(messageOf(result, "llms.links-resolve")).toBe("all 6 checked links resolve");
    // 5 sitemap URLs, and 6 links of two requests each (the link and its redirect), after the essential fetches.
    expect(result.requests).toBeLessThanOrEqual(60);
  });
});
