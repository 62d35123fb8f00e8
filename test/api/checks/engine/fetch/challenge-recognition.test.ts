import { readFileSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { recognizeProtection } from "../../../../../api/checks/engine/fetch/blocking/bot-protection.ts";
import { type FixtureSite, notFound, pathOf, send, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { checkSite, idsWith, messageOf, statusOf } from "../_helpers.ts";

const read = (path: string) => readFileSync(new URL(`../../../../fixtures/sites/${path}`, import.meta.url), "utf8");
/** A real page with Cloudflare's JavaScript Detections snippet (cloudflare-snippet/README.md). */
const SNIPPET_PAGE = read("cloudflare-snippet/files/index.html");
/** The same snippet as Cloudflare also serves it, under `/cdn-cgi/challenge-platform/h/g/`. */
const SNIPPET_PAGE_HG = SNIPPET_PAGE.replace(
  "/cdn-cgi/challenge-platform/scripts/jsd/main.js",
  "cdn-cgi/challenge-platform/h/g/scripts/jsd/b5237f8e6aad/maind41d.js",
);
/** A real Cloudflare managed challenge (cloudflare-challenge/README.md). */
const CHALLENGE = read("cloudflare-challenge/files/cloudflare-challenge.html");
const BLOCKED_TEXT =
  '<!doctype html><html lang="en"><head><title>Why a site says "Sorry, you have been blocked"</title></head><body><main>' +
  "<h1>Sorry, you have been blocked</h1><p>That is what Cloudflare shows when a WAF rule matches; here is what it means.</p>" +
  "</main></body></html>";

const html = (status: number, text: string, headers: Record<string, string> = {}) => ({
  status,
  text,
  headers: { "content-type": "text/html; charset=UTF-8", ...headers },
});

describe("telling a vendor's challenge from a page that carries its marks", () => {
  it("never takes Cloudflare's JavaScript Detections snippet on a 200 for a challenge, in either of its paths", () => {
    expect(recognizeProtection(html(200, SNIPPET_PAGE))).toBeNull();
    expect(recognizeProtection(html(200, SNIPPET_PAGE_HG))).toBeNull();
  });

  it("recognises Cloudflare's managed challenge by its status and its own structure, without cf-mitigated", () => {
    for (const status of [403, 503])
      expect(recognizeProtection(html(status, CHALLENGE))).toEqual({
        vendor: "Cloudflare",
        kind: "challenge",
        certain: true,
      });
    expect(recognizeProtection(html(200, SNIPPET_PAGE, { "cf-mitigated": "challenge" }))?.certain).toBe(true);
  });

  it("takes the marks alone on a 200 (a challenge page's text, 'Sorry, you have been blocked') for no more than a suspicion", () => {
    expect(recognizeProtection(html(200, CHALLENGE))?.certain).toBe(false);
    expect(recognizeProtection(html(200, BLOCKED_TEXT))).toEqual({
      vendor: "Cloudflare",
      kind: "block",
      certain: false,
    });
    expect(recognizeProtection(html(403, BLOCKED_TEXT))?.certain).toBe(true);
  });
});

const fromBrowser = (request: IncomingMessage) => (request.headers["user-agent"] ?? "").startsWith("Mozilla/5.0");

let site: FixtureSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

/** A site whose homepage is `home(request)`, with 200 to everyone; every other path is 404. */
async function siteWithHome(home: (request: IncomingMessage) => string): Promise<FixtureSite> {
  site = await startFixtureSite((request, response) => {
    if (pathOf(request) === "/") send(request, response, { type: "text/html; charset=utf-8", body: home(request) });
    else notFound(request, response);
  });
  return site;
}

describe("a check of a site whose pages carry a vendor's marks", () => {
  it("judges a 200 homepage with the JavaScript Detections snippet, served the same to every client: nothing blocked", async () => {
    const result = await checkSite(await siteWithHome(() => SNIPPET_PAGE));
    expect(idsWith(result, "blocked")).toEqual([]);
    expect(result.blocked).toBeNull();
    expect(statusOf(result, "http.home-200")).toBe("pass");
    expect(result.score.percent).not.toBeNull();
  });

  it("judges a 200 page that says 'Sorry, you have been blocked' to everyone as the site's own page", async () => {
    const result = await checkSite(await siteWithHome(() => BLOCKED_TEXT));
    expect(idsWith(result, "blocked")).toEqual([]);
    expect(statusOf(result, "http.home-200")).toBe("pass");
  });

  it("calls a challenge page served with 200 blocking when a browser gets the site's page instead", async () => {
    const result = await checkSite(await siteWithHome((request) => (fromBrowser(request) ? SNIPPET_PAGE : CHALLENGE)));
    expect(statusOf(result, "http.home-200")).toBe("blocked");
    expect(messageOf(result, "http.home-200")).toContain(
      "GET / with our User-Agent got 200 text/html (it reads like a Cloudflare challenge page); the same request with a browser's User-Agent and no signature got 200 text/html",
    );
    expect(result.incomplete).toBe(true);
  });
});
