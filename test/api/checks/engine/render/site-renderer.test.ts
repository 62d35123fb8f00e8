import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderRequest } from "../../../../../api/checks/engine/render/render-session.ts";
import type { RenderedSite, RenderOutcome } from "../../../../../api/checks/engine/render/rendered-site.ts";
import { SiteRenderer } from "../../../../../api/checks/engine/render/site-renderer.ts";
import { browserMemory, descendantsNamed } from "../../../../../scripts/bench/lib/browser-memory.ts";
import { type FixtureSite, pathOf, send, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { chromiumPath } from "../../../../helpers/chromium.ts";
import { noDns, settingsFor } from "../_helpers.ts";

let site: FixtureSite;
let hanging: FixtureSite;
let greedy: FixtureSite;
let greedyImages = 0;
let renderer: SiteRenderer;
let inFlight = 0;
let mostInFlight = 0;

const PAGE = `<!doctype html><html lang="en"><head><title>Slow home</title></head><body><main><h1>Home</h1>
<p>A page the server takes half a second to answer.</p><a href="/about">About</a></main></body></html>`;
const LINKS_TO_HANG = `<!doctype html><html lang="en"><head><title>Home</title></head><body><main><h1>Home</h1>
<a href="/hang">A page that never finishes</a></main></body></html>`;

beforeAll(async () => {
  // A homepage of three hundred images: more than the rendering's request budget.
  greedy = await startFixtureSite((request, response) => {
    if (pathOf(request).startsWith("/img/")) {
      greedyImages += 1;
      return send(request, response, { type: "image/gif", body: Buffer.from("R0lGODlhAQABAAAAACw=", "base64") });
    }
    const images = Array.from({ length: 300 }, (_, index) => `<img src="/img/${index}.gif" alt="">`).join("");
    send(request, response, { type: "text/html", body: `<!doctype html><title>Many</title><main>${images}</main>` });
  });
  hanging = await startFixtureSite((request, response) => {
    if (pathOf(request) !== "/hang") return send(request, response, { type: "text/html", body: LINKS_TO_HANG });
    // Starts the page, then never ends it: the browser waits for `load` until the rendering's time limit.
    response.writeHead(200, { "content-type": "text/html" });
    response.write("<!doctype html><title>Hangs</title><p>Half a page");
  });
  site = await startFixtureSite(async (request, response) => {
    const path = pathOf(request);
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, path === "/" ? 500 : 0));
    inFlight -= 1;
    send(request, response, { type: "text/html; charset=utf-8", body: path === "/" ? PAGE : "<title>x</title>" });
  });
  renderer = new SiteRenderer({
    executablePath: chromiumPath(),
    settings: settingsFor(site),
    limits: { timeMs: 8_000, settleMs: 100, maxRequests: 40 },
  });
}, 30_000);

afterAll(async () => {
  await renderer?.close();
  await site?.close();
  await hanging?.close();
  await greedy?.close();
});

const renderRequest = (target: FixtureSite = site): RenderRequest => ({
  origin: target.origin,
  probeUrl: `${target.origin}/__nonexistent-test`,
  settings: settingsFor(target),
  lookup: noDns,
});

function rendered(outcome: RenderOutcome): RenderedSite {
  if (outcome.status !== "rendered") throw new Error(`not rendered: ${outcome.note}`);
  return outcome;
}

describe("the instance's renderer", () => {
  it("renders at most two scans at once; a third waits its turn and still renders", async () => {
    mostInFlight = 0;
    const outcomes = await Promise.all([1, 2, 3].map(() => renderer.render(renderRequest())));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rendered", "rendered", "rendered"]);
    expect(mostInFlight).toBe(2);
    expect(renderer.launches).toBe(1);
  }, 60_000);

  it("reads a page that never finishes loading as it stands, within the rendering's time limit", async () => {
    const started = performance.now();
    const outcome = rendered(await renderer.render(renderRequest(hanging)));
    const elapsed = performance.now() - started;
    const deep = outcome.pages.find((page) => page.role === "deep");
    expect(deep?.url).toBe(`${hanging.origin}/hang`);
    expect(deep?.error).toBe("the page did not finish loading within the rendering's time limit");
    expect(deep?.html).toMatch(/Half a page/);
    expect(elapsed).toBeLessThan(renderer.limits.timeMs + 2_500);
  }, 30_000);

  it("refuses a page's requests past the rendering's budget: the site never sees them", async () => {
    const outcome = rendered(await renderer.render(renderRequest(greedy)));
    expect(outcome.spending.requests).toBe(renderer.limits.maxRequests);
    expect(outcome.spending.refused).toBeGreaterThan(200);
    expect(greedyImages).toBeLessThan(renderer.limits.maxRequests);
    expect(outcome.pages[0]?.refused[0]?.reason).toBe("the rendering's budget of 40 requests is spent");
  }, 60_000);

  it("replaces the browser after its page allowance", async () => {
    const recycling = new SiteRenderer({
      executablePath: chromiumPath(),
      settings: settingsFor(site),
      limits: { settleMs: 100, pagesPerBrowser: 1 },
    });
    try {
      rendered(await recycling.render(renderRequest()));
      expect(recycling.launches).toBe(1);
      rendered(await recycling.render(renderRequest()));
      expect(recycling.launches).toBe(2);
    } finally {
      await recycling.close();
    }
  }, 60_000);

  it("replaces the browser after a crash", async () => {
    const before = renderer.launches;
    rendered(await renderer.render(renderRequest()));
    const browsers = descendantsNamed("chrom");
    expect(browsers.length).toBeGreaterThan(0);
    expect(browserMemory().pssMb).toBeGreaterThan(20);
    for (const pid of browsers) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // A renderer process that ended on its own between the listing and the kill.
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = rendered(await renderer.render(renderRequest()));
    expect(after.pages[0]?.status).toBe(200);
    expect(renderer.launches).toBe(before + 1);
  }, 60_000);
});
