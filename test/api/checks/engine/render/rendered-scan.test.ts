import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SiteRenderer } from "../../../../../api/checks/engine/render/site-renderer.ts";
import type { ReadinessResult } from "../../../../../src/schemas/report.ts";
import { clientRenderedShop } from "../../../../fixtures/sites/client-rendered.ts";
import { type FixtureSite, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { chromiumPath } from "../../../../helpers/chromium.ts";
import { type LoopbackTraps, startLoopbackTraps } from "../../../../helpers/loopback-traps.ts";
import { checkSite, messageOf, settingsFor, statusOf } from "../_helpers.ts";

// One browser for the whole file (a renderer launches it on first use); each scan gets a fresh context.
let renderer: SiteRenderer;
let traps: LoopbackTraps;
let shop: FixtureSite;
let result: ReadinessResult;

beforeAll(async () => {
  traps = await startLoopbackTraps();
  shop = await startFixtureSite(clientRenderedShop(traps));
  renderer = new SiteRenderer({ executablePath: chromiumPath(), settings: settingsFor(shop) });
  result = await checkSite(shop, { renderer });
}, 60_000);

afterAll(async () => {
  await renderer?.close();
  await shop?.close();
  await traps?.close();
});

describe("a rendered scan of a client-rendered shop that tries to leave the browser", () => {
  it("renders the homepage, the soft-404 probe and one deep page through the guard", () => {
    expect(result.render?.status).toBe("rendered");
    expect(result.render?.pages.map((page) => page.role)).toEqual(["home", "probe", "deep"]);
    expect(result.render?.pages.find((page) => page.role === "deep")?.url).toMatch(/\/products\/trail-runner$/);
    expect(result.render?.user_agent).toMatch(
      /HeadlessChrome\/\d+.* AgentReadyBot\/1\.0 \(\+https:\/\/agent-ready\.test\//,
    );
  });

  it("names the content that only JavaScript shows, with how much of it", () => {
    expect(statusOf(result, "render.content")).toBe("warn");
    const message = messageOf(result, "render.content");
    expect(message).toMatch(
      /only after JavaScript runs: on \/, \d+ of \d+ words \(\d+ %\), \d+ of \d+ links, \d+ of \d+ headings/,
    );
    expect(message).toMatch(/the title \("Acme Outfitters: trail gear shipped in a day"\), the description/);
    expect(message).toMatch(/agents that do not run JavaScript .* do not see it/);
    expect(statusOf(result, "render.jsonld")).toBe("warn");
    expect(messageOf(result, "render.jsonld")).toMatch(
      /JSON-LD added by JavaScript: 1 block\(s\) \(ItemList, ListItem, Product\) on \//,
    );
  });

  it("names the WebMCP tool the page registers at runtime", () => {
    expect(statusOf(result, "render.webmcp")).toBe("pass");
    expect(messageOf(result, "render.webmcp")).toMatch(/"search_products" \(registered by script in \/app\.js\)/);
    expect(messageOf(result, "render.webmcp")).toMatch(/1 registered at runtime/);
  });

  it("sees the soft 404 that only the rendered page shows", () => {
    expect(statusOf(result, "http.soft404")).toBe("fail");
    expect(statusOf(result, "render.soft404")).toBe("warn");
    expect(messageOf(result, "render.soft404")).toMatch(
      /a soft 404 only a browser sees: \/__nonexistent-\w+ answers 200 and says "not found" only after JavaScript/,
    );
  });

  it("lets nothing reach loopback: no private fetch, localhost image, WebSocket, redirect, beacon, worker or STUN", async () => {
    // Late requests (the worker, the iframe's redirect) have had the whole scan to arrive.
    expect(traps.hits).toEqual([]);
    expect(result.render?.refused).toBeGreaterThanOrEqual(8);
    const evidence = result.details.find((detail) => detail.id === "render.content")?.evidence ?? [];
    const home = evidence.find(
      (entry) => entry.request.url === `${shop.origin}/` && entry.finding.startsWith("rendered in Chromium"),
    );
    expect(home?.finding).toMatch(/the guard refused \d+ request\(s\)/);
  });

  it("counts the browser's requests in the scan's and stays within the rendering's documented budget", () => {
    const rendered = result.render?.requests ?? 0;
    expect(rendered).toBeGreaterThan(3);
    expect(rendered).toBeLessThanOrEqual(renderer.limits.maxRequests);
    expect(result.render?.bytes).toBeLessThanOrEqual(renderer.limits.maxBytes);
    expect(result.render?.hosts).toBeLessThanOrEqual(renderer.limits.maxHosts);
    expect(result.render?.duration_ms).toBeLessThanOrEqual(renderer.limits.timeMs);
    expect(result.render?.pages.length).toBeLessThanOrEqual(renderer.limits.maxPages);
    expect(result.requests).toBeGreaterThan(rendered);
    // The shop itself saw the browser's requests with the renderer's User-Agent.
    expect(shop.requests.some((request) => request.userAgent.includes("HeadlessChrome"))).toBe(true);
  });
});

describe("a scan asked to render where no browser is installed", () => {
  it("says so in the report and keeps the static report, its rendered checks n/a", async () => {
    const missing = new SiteRenderer({ executablePath: "/nonexistent/chromium", settings: settingsFor(shop) });
    const plain = await checkSite(shop, { renderer: missing });
    expect(plain.render).toMatchObject({ status: "unavailable", pages: [], requests: 0 });
    expect(plain.render?.note).toMatch(
      /not rendered: no Chromium at \/nonexistent\/chromium .*; the static report stands/,
    );
    for (const id of ["render.content", "render.webmcp", "render.agent-tree"])
      expect(statusOf(plain, id), id).toBe("n/a");
    expect(statusOf(plain, "http.soft404")).toBe("fail");
    expect(missing.launches).toBe(0);
  });

  it("leaves the rendered checks n/a, saying how to render, when the scan did not ask", async () => {
    const plain = await checkSite(shop);
    expect(plain.render).toBeNull();
    expect(statusOf(plain, "render.content")).toBe("n/a");
    expect(messageOf(plain, "render.content")).toMatch(/run the check with --render \(API: "render": true\)/);
  });
});
