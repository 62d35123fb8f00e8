import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectPageErrors, launchBrowser, screenshot } from "../helpers/browser.ts";
import { type RunningServer, startServerWithOwnDatabase } from "../helpers/server-process.ts";

// The pages as a person meets them on a phone (375 × 812, the size the problems were seen at) and on
// a wide screen, with JavaScript and without: what they would notice, measured in Chromium.
const PHONE = { width: 375, height: 812 };
const WIDE = { width: 1280, height: 900 };

let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  server = await startServerWithOwnDatabase("phone-pages");
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function visit(
  path: string,
  options: { javaScript?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<{ page: Page; context: BrowserContext; errors: string[] }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? PHONE,
    javaScriptEnabled: options.javaScript ?? true,
  });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  expect((await page.goto(`${server.url}${path}`))?.status(), path).toBe(200);
  return { page, context, errors };
}

/**
 * Whether Chromium tells assistive technology the Menu button's panel is open: a popover's invoker is
 * expanded by the browser itself, without an aria-expanded attribute (or JavaScript) to keep in step.
 */
async function menuExpanded(page: Page): Promise<unknown> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
  const { nodes } = await cdp.send("Accessibility.queryAXTree", {
    nodeId: root.nodeId,
    accessibleName: "Menu",
    role: "button",
  });
  await cdp.detach();
  return nodes[0]?.properties?.find((property) => property.name === "expanded")?.value.value;
}

/** Where an element's bottom edge is, in CSS pixels from the top of the page as it first shows. */
async function bottomOf(page: Page, locator: ReturnType<Page["locator"]>): Promise<number> {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return (box?.y ?? 0) + (box?.height ?? 0) + (await page.evaluate(() => window.scrollY));
}

describe.each([true, false])("on a phone (JavaScript: %s)", (javaScript) => {
  it("starts each page after a header of one row, the site navigation folded behind Menu until opened", async () => {
    for (const path of ["/", "/store/discovery-starter-kit", "/docs/quickstart"]) {
      const { page, context } = await visit(path, { javaScript });
      const header = await page.locator("header.site").boundingBox();
      expect(header?.height, path).toBeLessThanOrEqual(80);
      const main = page.getByRole("navigation", { name: "Main" });
      expect(await main.getByRole("link", { name: "Store" }).isVisible(), path).toBe(false);
      const menu = page.getByRole("button", { name: "Menu", exact: true });
      expect(await menuExpanded(page)).toBe(false);
      await menu.click();
      expect(await menuExpanded(page)).toBe(true);
      expect(await main.getByRole("link", { name: "Store" }).isVisible(), path).toBe(true);
      if (path === "/") await screenshot(page, `phone-menu-open-js-${javaScript}`);
      await page.keyboard.press("Escape");
      expect(await main.getByRole("link", { name: "Store" }).isVisible(), path).toBe(false);
      await context.close();
    }
  });

  it("reaches another section through the menu", async () => {
    const { page, context } = await visit("/", { javaScript });
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Waiting list" }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/waitlist`);
    await context.close();
  });

  it("shows the home page's primary action in the first screen", async () => {
    const { page, context } = await visit("/", { javaScript });
    const action = page.getByRole("link", { name: "Run a readiness check" });
    expect(await action.isVisible()).toBe(true);
    expect(await bottomOf(page, action)).toBeLessThanOrEqual(PHONE.height);
    await screenshot(page, `phone-home-first-screen-js-${javaScript}`);
    await context.close();
  });

  it("shows a product's price and Buy button in the first screen", async () => {
    const { page, context } = await visit("/store/discovery-starter-kit", { javaScript });
    const buy = page.getByRole("button", { name: "Buy Discovery starter kit" });
    expect(await bottomOf(page, buy)).toBeLessThanOrEqual(PHONE.height);
    expect(await bottomOf(page, page.locator("dl.facts").getByText("€29.00"))).toBeLessThanOrEqual(PHONE.height);
    await screenshot(page, `phone-product-first-screen-js-${javaScript}`);
    await context.close();
  });
});

describe("on a wide screen", () => {
  it("shows the navigation in the header with no Menu button", async () => {
    const { page, context } = await visit("/store", { viewport: WIDE, javaScript: false });
    expect(await page.getByRole("button", { name: "Menu", exact: true }).isVisible()).toBe(false);
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Docs" }).isVisible()).toBe(
      true,
    );
    await context.close();
  });

  it("starts every card's heading at the card's padding, with no empty band above it", async () => {
    for (const path of ["/", "/store"]) {
      const { page, context } = await visit(path, { viewport: WIDE });
      const gaps = await page.locator(".card").evaluateAll((cards) =>
        cards.map((card) => {
          const heading = card.querySelector("h2, h3");
          const first = card.firstElementChild;
          if (!heading || !first) return 0;
          // Above the heading there may be the card's padding and a cover, nothing else.
          const above = first === heading ? card.getBoundingClientRect().top : first.getBoundingClientRect().bottom;
          return Math.round(heading.getBoundingClientRect().top - above);
        }),
      );
      expect(gaps.length, path).toBeGreaterThan(0);
      for (const gap of gaps) expect(gap, path).toBeLessThanOrEqual(20);
      await context.close();
    }
  });
});

describe("the store's product covers", () => {
  it("are SVGs the site drew itself, one per product, loaded from this origin", async () => {
    const context = await browser.newContext({ viewport: WIDE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const requested: string[] = [];
    page.on("request", (request) => void requested.push(request.url()));
    expect((await page.goto(`${server.url}/store`, { waitUntil: "load" }))?.status()).toBe(200);
    const covers = await page.locator(".product-card img.cover").evaluateAll((images) =>
      images.map((image) => ({
        src: (image as HTMLImageElement).currentSrc,
        loaded: (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
        alt: image.getAttribute("alt"),
        title: image.closest(".card")?.querySelector("h3")?.textContent ?? "",
      })),
    );
    const products = await page.locator("main .cards > li.card").count();
    expect(products).toBeGreaterThan(0);
    expect(covers.length).toBe(products);
    for (const cover of covers) {
      expect(cover.loaded, cover.src).toBe(true);
      expect(cover.alt).toBe("");
      const response = await fetch(cover.src);
      expect(response.headers.get("content-type")).toBe("image/svg+xml");
      expect(await response.text()).toContain(`<title>${cover.title.replaceAll("&", "&#38;")}</title>`);
    }
    expect(requested.filter((url) => !url.startsWith(server.url))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the footer", () => {
  it.each([
    ["Status", "/status.json"],
    ["Capabilities", "/capabilities.json"],
  ])("links %s to a page that explains it and links the JSON", async (name, json) => {
    const { page, context } = await visit("/", { viewport: WIDE, javaScript: false });
    await page.locator("footer").getByRole("link", { name, exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/docs\//);
    expect(await page.evaluate(() => document.contentType)).toBe("text/html");
    expect(await page.locator(`main a[href$="${json}"], main code`).filter({ hasText: json }).count()).toBeGreaterThan(
      0,
    );
    await context.close();
  });
});

describe("a doc page on a phone", () => {
  it("never shows a code block's Copy button over its code, however far a long line is scrolled", async () => {
    const { page, context } = await visit("/docs/quickstart");
    const blocks = page.locator(".code-block");
    expect(await blocks.count()).toBeGreaterThan(3);
    const overlaps = await blocks.evaluateAll((elements) => {
      const found: string[] = [];
      for (const block of elements) {
        const pre = block.querySelector("pre");
        const button = block.querySelector("button")?.getBoundingClientRect();
        if (!pre || !button) continue;
        for (const left of [0, pre.scrollWidth / 2, pre.scrollWidth]) {
          pre.scrollLeft = left;
          const visible = pre.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(pre);
          for (const rect of range.getClientRects()) {
            // Text scrolled out of the block's box is clipped, not covered.
            const shown = rect.right > visible.left && rect.left < visible.right && rect.width > 0;
            const under =
              rect.left < button.right &&
              rect.right > button.left &&
              rect.top < button.bottom &&
              rect.bottom > button.top;
            if (shown && under) found.push(`${(pre.textContent ?? "").slice(0, 40)}… at scrollLeft ${left}`);
          }
        }
      }
      return found;
    });
    expect(overlaps).toEqual([]);
    await screenshot(page, "phone-code-blocks");
    await context.close();
  });

  it.each(["/docs/operations/benchmarks", "/docs/store/downloads"])(
    "scrolls %s's wide tables sideways rather than squeezing their columns",
    async (path) => {
      const { page, context } = await visit(path);
      const tables = await page.locator(".prose .table-scroll").evaluateAll((regions) =>
        regions.map((region) => {
          const cells = [...region.querySelectorAll("th, td")].map((cell) => cell.getBoundingClientRect().width);
          const columns = region.querySelector("tr")?.children.length ?? 0;
          return { columns, narrowest: Math.min(...cells), scrolls: region.scrollWidth > region.clientWidth };
        }),
      );
      const wide = tables.filter((table) => table.columns >= 4);
      expect(wide.length).toBeGreaterThan(0);
      for (const table of wide) {
        // 7rem: a column a few words wide, where before some were squeezed to 55 px, a word a line.
        expect(table.narrowest).toBeGreaterThanOrEqual(111);
        expect(table.scrolls).toBe(true);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await context.close();
    },
  );
});
