import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, screenshot } from "../helpers/browser.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";

let server: RunningServer;
let browser: Browser;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "browser-"));
  server = await startServer({
    DATABASE_URL: `file:${join(dir, "service.db")}`,
    CHECKS_ALLOWED_TARGETS: `127.0.0.1:${testBuild().port}`,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function open(path: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

describe("people use the site in a real browser, without JavaScript", () => {
  it("browse the docs through the sidebar and reach an earlier version of a page", async () => {
    const page = await open("/docs");
    await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Rate limits" }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/docs/reference/rate-limits`);
    expect(await page.locator("h1").textContent()).toBe("Rate limits");
    await page
      .locator('section[aria-labelledby="versions"]')
      .getByRole("link", { name: "reference--rate-limits-2026-10-01" })
      .click();
    expect(page.url()).toContain("/archive/docs/reference--rate-limits/reference--rate-limits-2026-10-01");
    expect(await page.getByRole("note").textContent()).toContain("superseded");
    await screenshot(page, "docs-archived-version");
    await page.getByRole("link", { name: "Read the current version" }).click();
    expect(page.url()).toBe(`${server.url}/docs/reference/rate-limits`);
    await page.close();
  });

  it("join the waiting list through the form, seeing each mistake explained first", async () => {
    const page = await open("/waitlist");
    await page.getByLabel("E-mail address").fill("not an address");
    await page.getByRole("button", { name: "Join the waiting list" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Please correct the 2 answers below.");
    expect(await page.locator("#email-error").textContent()).toBe(
      "Enter your e-mail address in full, such as name@example.com.",
    );
    await screenshot(page, "waitlist-errors");
    await page.getByLabel("E-mail address").fill("ada@example.com");
    await page.getByLabel(/I agree to the privacy policy/).check();
    await page.getByLabel(/Make me a legend/).check();
    await page.getByRole("button", { name: "Join the waiting list" }).click();
    expect(await page.getByRole("status").textContent()).toContain("you are a legend");
    await screenshot(page, "waitlist-joined");
    await page.close();
  });

  it("run a readiness check from the form and read the report", async () => {
    const page = await open("/checks");
    await page.getByLabel(/^Site/).fill(server.url);
    await page.getByRole("button", { name: "Run the check" }).click();
    await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/\/checks\/[0-9a-f-]{36}$/);
    expect(await page.locator("h1").textContent()).toBe(`Readiness of ${server.url}`);
    expect(await page.getByRole("img", { name: /Score \d+ out of 100/ }).count()).toBe(1);
    for (const heading of ["What to fix", "Every check"])
      expect(await page.getByRole("heading", { name: heading, exact: true }).count(), heading).toBe(1);
    await screenshot(page, "check-report");
    await page.close();
  });
});

describe("the pages people use are accessible", () => {
  it("can be used from the keyboard: the skip link comes first and moves focus to the content", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/docs/quickstart`);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Enter");
    expect(page.url()).toContain("#main");
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      inMain: Boolean(document.activeElement?.closest("main")),
    }));
    expect(focused.inMain).toBe(true);
    await page.close();
  });
});
