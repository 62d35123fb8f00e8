import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectPageErrors, launchBrowser, screenshot, seriousViolations } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let server: RunningServer;
let browser: Browser;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "docs-shell-"));
  server = await startServer({ DATABASE_URL: `file:${join(dir, "service.db")}` });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const HEIGHT = 667;

interface Visit {
  page: Page;
  context: BrowserContext;
  errors: string[];
}

async function visit(
  path: string,
  width: number,
  options: { javaScript?: boolean; dark?: boolean } = {},
): Promise<Visit> {
  const context = await browser.newContext({
    viewport: { width, height: HEIGHT },
    javaScriptEnabled: options.javaScript ?? true,
    colorScheme: options.dark ? "dark" : "light",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  expect((await page.goto(`${server.url}${path}`))?.status(), path).toBe(200);
  return { page, context, errors };
}

/** On a phone the search and theme controls are in the site menu: open it first. */
async function openSiteMenu(page: Page, width: number): Promise<void> {
  if (width < 896) await page.getByRole("button", { name: "Menu", exact: true }).click();
}

/** The page's background colour's lightness, 0 (black) to 255 (white). */
function backgroundLightness(page: Page): Promise<number> {
  return page.evaluate(() => {
    const background = getComputedStyle(document.documentElement).backgroundColor;
    const [r = 0, g = 0, b = 0] = background.match(/\d+/g)?.map(Number) ?? [];
    return Math.round(0.2126 * r + 0.7152 * g + 0.0722 * b);
  });
}

describe.each([1280, 375])("a reader at %i px wide", (width) => {
  it("searches the docs for a word from a page's body and opens that page from the results", async () => {
    const body = await readFile("content/docs/authentication.md", "utf8");
    expect(body.split("---")[2]).toContain("unguessable");
    const { page, context, errors } = await visit("/docs", width);
    await openSiteMenu(page, width);
    await page.getByRole("button", { name: "Search docs" }).click();
    const dialog = page.getByRole("dialog", { name: /search/i });
    await dialog.getByRole("combobox").or(dialog.getByRole("searchbox")).first().fill("unguessable");
    const result = dialog.getByRole("link", { name: "Authentication", exact: true });
    await result.waitFor({ timeout: 30_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `docs-search-${width}`);
    await result.click();
    await expect.poll(() => page.url()).toBe(`${server.url}/docs/authentication`);
    expect(await page.locator("h1").textContent()).toBe("Authentication");
    expect(errors).toEqual([]);
    await context.close();
    // The first search loads the search UI, its WebAssembly and index chunks: slow on a busy machine.
  }, 60_000);

  it("is told there are no results for a query no page contains, not shown pages that share its first letter", async () => {
    const { page, context, errors } = await visit("/docs", width);
    await openSiteMenu(page, width);
    await page.getByRole("button", { name: "Search docs" }).click();
    const dialog = page.getByRole("dialog", { name: /search/i });
    const box = dialog.getByRole("combobox").or(dialog.getByRole("searchbox")).first();
    // Before: "xqzvbnw" listed 11 pages (every page with an "x"), "asdfgh" 21 (every "as").
    for (const query of ["xqzvbnw", "asdfgh", "rate xqzv"]) {
      await box.fill(query);
      await dialog.getByText(`No results for ${query}`).waitFor({ timeout: 30_000 });
      expect(await dialog.getByRole("link").count(), query).toBe(0);
    }
    await box.fill("authentcation");
    await dialog.getByRole("link", { name: "Authentication", exact: true }).waitFor({ timeout: 30_000 });
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it("sees the page's title on the first screen, and reaches every doc page through the sidebar", async () => {
    const { page, context, errors } = await visit("/docs/reference/errors", width);
    const title = await page.locator("h1").boundingBox();
    expect(title && title.y + title.height).toBeLessThanOrEqual(HEIGHT);
    const sidebar = page.getByRole("navigation", { name: "Documentation" });
    const rateLimits = sidebar.getByRole("link", { name: "Rate limits" });
    const menu = page.getByRole("button", { name: "Docs menu", exact: true });
    if (width < 900) {
      expect(await rateLimits.isVisible()).toBe(false);
      await menu.click();
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `docs-menu-open-${width}`);
    } else {
      expect(await menu.isVisible()).toBe(false);
    }
    await rateLimits.click();
    await expect.poll(() => page.url()).toBe(`${server.url}/docs/reference/rate-limits`);
    expect(await page.locator("h1").textContent()).toBe("Rate limits");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("follows the on-page contents list to a section of the page", async () => {
    const { page, context } = await visit("/docs/reference/errors", width);
    const contents = page.getByRole("navigation", { name: "On this page" });
    const entry = contents.getByRole("link", { name: "Every code" });
    if (width < 900) {
      expect(await entry.isVisible()).toBe(false);
      await page.getByText("On this page", { exact: true }).click();
    }
    await entry.click();
    await expect.poll(() => page.url()).toBe(`${server.url}/docs/reference/errors#every-code`);
    const heading = await page.getByRole("heading", { name: "Every code" }).boundingBox();
    expect(heading?.y).toBeGreaterThanOrEqual(0);
    expect(heading?.y).toBeLessThan(HEIGHT / 2);
    await context.close();
  });

  it("goes to the previous and next pages in sidebar order, and they are what the links say", async () => {
    const { page, context } = await visit("/docs/quickstart", width);
    const sidebarOrder = await page
      .getByRole("navigation", { name: "Documentation" })
      .locator("a")
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    const here = sidebarOrder.indexOf("/docs/quickstart");
    const pagination = page.getByRole("navigation", { name: "Previous and next pages" });
    const next = pagination.getByRole("link", { name: /^Next/ });
    const nextTitle = await next.locator(".title").textContent();
    await next.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(sidebarOrder[here + 1]);
    expect(await page.locator("h1").textContent()).toBe(nextTitle);
    const previous = page
      .getByRole("navigation", { name: "Previous and next pages" })
      .getByRole("link", { name: /^Previous/ });
    expect(await previous.locator(".title").textContent()).toBe("Quickstart for agents");
    await previous.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/docs/quickstart");
    await context.close();
  });

  it("copies a code block and the whole page as Markdown to the clipboard", async () => {
    const { page, context, errors } = await visit("/docs/quickstart", width);
    const firstBlock = page.locator(".prose pre").first();
    await page.getByRole("button", { name: "Copy code" }).first().click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe((await firstBlock.innerText()).replace(/\n$/, ""));
    await page.getByRole("button", { name: "Copy page as Markdown" }).click();
    const markdown = await (await fetch(`${server.url}/docs/quickstart.md`)).text();
    expect(markdown).toContain("# Quickstart for agents");
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(markdown);
    expect(await page.getByRole("status").textContent()).toBe("Copied to the clipboard.");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("switches to the dark theme, and every page remembers the choice until the system setting is chosen again", async () => {
    const { page, context, errors } = await visit("/docs/quickstart", width);
    expect(await backgroundLightness(page)).toBeGreaterThan(200);
    await openSiteMenu(page, width);
    await page.getByLabel("Theme").selectOption("dark");
    expect(await backgroundLightness(page)).toBeLessThan(60);
    await screenshot(page, `docs-dark-${width}`);
    await page.goto(`${server.url}/store`);
    expect(await backgroundLightness(page)).toBeLessThan(60);
    expect(await page.getByLabel("Theme").inputValue()).toBe("dark");
    await openSiteMenu(page, width);
    await page.getByLabel("Theme").selectOption("auto");
    await page.reload();
    expect(await backgroundLightness(page)).toBeGreaterThan(200);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("reads a wide table by scrolling it, its words never broken to fit", async () => {
    const { page, context } = await visit("/docs/checks/catalogue", width);
    const broken = await page.locator(".prose table").evaluateAll((tables) => {
      const split: string[] = [];
      for (const table of tables) {
        const walker = document.createTreeWalker(table, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const word of (node.textContent ?? "").matchAll(/[A-Za-z0-9]+/g)) {
            const range = document.createRange();
            range.setStart(node, word.index);
            range.setEnd(node, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (lines.size > 1) split.push(word[0]);
          }
        }
      }
      return split;
    });
    expect(broken).toEqual([]);
    const region = page.getByRole("region", { name: /^Table/ }).first();
    await region.focus();
    const scrolls = await region.evaluate((element) => element.scrollWidth > element.clientWidth);
    if (scrolls) {
      await page.keyboard.press("ArrowRight");
      await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    }
    expect(scrolls).toBe(width < 900);
    await context.close();
  });
});

describe("the docs without JavaScript", () => {
  it("follow the system's dark setting, open the menu on a phone, and show no control that could not work", async () => {
    const { page, context } = await visit("/docs/quickstart", 375, { javaScript: false, dark: true });
    expect(await backgroundLightness(page)).toBeLessThan(60);
    for (const control of ["Search docs", "Copy page as Markdown", "Copy code"]) {
      expect(await page.getByRole("button", { name: control }).count(), control).toBe(0);
    }
    await page.getByRole("button", { name: "Docs menu", exact: true }).click();
    await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Authentication" }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/docs/authentication`);
    await context.close();
  });
});
