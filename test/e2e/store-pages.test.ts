import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatBytes } from "../../src/lib/format-bytes.ts";
import type { FakeStripe } from "../fakes/stripe/fake-server.ts";
import { fitsViewport, screenshot, seriousViolations } from "../helpers/browser.ts";
import { type CommerceStack, startCommerceStack } from "../helpers/commerce-stack.ts";
import type { RunningServer } from "../helpers/server-process.ts";
import { mimePart, type SmtpSink } from "../helpers/smtp.ts";
import { testBuild } from "../helpers/test-build.ts";
import { launchWebMcpBrowser, webMcpReport } from "../helpers/webmcp.ts";

// The product pages and the checkout return page as a buyer meets them in Chromium, without
// JavaScript, with payments against the fake provider and mail to a real SMTP server.
let stack: CommerceStack;
let server: RunningServer;
let fake: FakeStripe;
let smtp: SmtpSink;
let browser: Browser;

beforeAll(async () => {
  stack = await startCommerceStack("e2e_store_pages", { CHECKS_ALLOWED_TARGETS: `127.0.0.1:${testBuild().port}` });
  ({ server, fake, smtp } = stack);
  browser = await launchWebMcpBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function open(path: string, width: number): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width, height: 900 },
    javaScriptEnabled: false,
    acceptDownloads: true,
  });
  const response = await page.goto(`${server.url}${path}`);
  expect(response?.status(), path).toBe(200);
  return page;
}

async function axe(url: string): Promise<void> {
  // Our CSP refuses inline scripts, axe's included: only this audit tab may bypass it.
  const audit = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await audit.goto(url);
  expect(await seriousViolations(audit)).toEqual([]);
  await audit.close();
}

const kitFile = join(process.cwd(), "content/files/discovery-starter-kit.json");

describe("a product page", () => {
  it.each([1280, 375])(
    "at %i px shows the format, size, contents and a preview, and its buy button starts the checkout",
    async (width) => {
      const page = await open("/store", width);
      await page.getByRole("link", { name: "Discovery starter kit", exact: true }).click();
      expect(page.url()).toBe(`${server.url}/store/discovery-starter-kit`);
      expect(await page.locator("h1").innerText()).toBe("Discovery starter kit");
      const facts = await page.locator("dl.facts").innerText();
      expect(facts).toContain("JSON, one file");
      expect(facts).toContain(formatBytes((await stat(kitFile)).size));
      expect(facts).toContain("€29.00");
      expect(await page.getByRole("heading", { name: "What is in it" }).isVisible()).toBe(true);
      expect(await page.getByRole("listitem").filter({ hasText: "/llms.txt:" }).count()).toBe(1);
      const preview = page.locator("pre.sample");
      expect(await preview.isVisible()).toBe(true);
      expect(await readFile(kitFile, "utf8")).toContain((await preview.innerText()).split("\n")[0]);
      expect(await page.getByRole("link", { name: "refund policy", exact: true }).getAttribute("href")).toBe(
        "/policies/refunds",
      );
      expect(await fitsViewport(page)).toBe(true);
      await screenshot(page, `product-page-${width}`);

      await page.getByRole("button", { name: "Buy Discovery starter kit" }).click();
      await expect.poll(() => page.url()).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
      expect(await page.locator("#total").innerText()).toBe("29.00 EUR");
      await page.close();
    },
  );

  it("has no serious or critical accessibility problem", async () => {
    await axe(`${server.url}/store/discovery-starter-kit`);
  });

  it("says plainly when the product is not on sale, and offers no buy button", async () => {
    const page = await open("/store/api-hygiene-workbook", 1280);
    expect(await page.locator("dl.facts").innerText()).toContain("Not on sale right now");
    expect(await page.getByRole("button", { name: /^Buy / }).count()).toBe(0);
    await page.close();
  });
});

describe("the checkout return page", () => {
  it("shows the order number, the masked e-mail, the provider's receipt and the download", {
    timeout: 60_000,
  }, async () => {
    const page = await open("/store/agent-readiness-checklist", 1280);
    await page.getByRole("button", { name: "Buy Agent-readiness checklist" }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
    await page.getByLabel("E-mail").fill("shopper@example.com");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${server.url}/store/return\\?session_id=cs_test_`));
    const returnUrl = page.url();
    expect(await page.locator("h1").innerText()).toContain("Thank you");

    const order = page.locator("dl.order");
    const orderNumber = await order.locator("code").innerText();
    expect(orderNumber).toMatch(/^ord_[A-Za-z0-9]+$/);
    expect(await order.innerText()).toContain("Download link sent to\ns•••@example.com");
    expect(await page.content()).not.toContain("shopper@example.com");
    // The outbox sends in the background: give it longer than expect.poll's default second on a busy machine.
    await expect
      .poll(() => smtp.received.some((message) => message.to.includes("shopper@example.com")), { timeout: 15_000 })
      .toBe(true);
    const mail = mimePart(
      smtp.received.find((message) => message.to.includes("shopper@example.com"))?.raw ?? "",
      "text/plain",
    );
    expect(mail).toContain(`(order ${orderNumber})`);
    await screenshot(page, "store-return-receipt");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download Agent-readiness checklist" }).click(),
    ]);
    const saved = join(stack.dir, "checklist");
    await download.saveAs(saved);
    expect(
      (await readFile(saved)).equals(await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md"))),
    ).toBe(true);

    await page.getByRole("link", { name: "Your receipt from the payment provider" }).click();
    expect(page.url()).toMatch(new RegExp(`^${fake.url}/receipts/ch_`));
    expect(await page.locator("#amount").innerText()).toBe("19.00 EUR");
    await page.close();

    const narrow = await open(new URL(returnUrl).pathname + new URL(returnUrl).search, 375);
    expect(await fitsViewport(narrow)).toBe(true);
    await screenshot(narrow, "store-return-receipt-375");
    await narrow.close();
    await axe(returnUrl);
  });
});

describe("a report page with payments on", () => {
  it("offers its pay and credit forms as valid WebMCP tools", { timeout: 60_000 }, async () => {
    const response = await fetch(`${server.url}/api/v1/checks`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ domain: server.url }),
    });
    const { id } = (await response.json()) as { id: string };
    const page = await browser.newPage();
    const report = await webMcpReport(page, `${server.url}/checks/${id}`);
    expect(report.tools.map((tool) => tool.name).sort()).toEqual(["pay_to_unlock_report", "unlock_report_with_credit"]);
    expect(report.issues).toEqual([]);
    expect(report.unannotatedForms).toEqual([]);
    await page.close();
  });
});
