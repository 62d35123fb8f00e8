import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeStripe } from "../fakes/stripe/fake-server.ts";
import { launchBrowser, screenshot, seriousViolations } from "../helpers/browser.ts";
import { type CommerceStack, startCommerceStack } from "../helpers/commerce-stack.ts";
import { creditCodeIn } from "../helpers/credit-code.ts";
import type { RunningServer } from "../helpers/server-process.ts";
import { mimePart, type SmtpSink } from "../helpers/smtp.ts";
import { testBuild } from "../helpers/test-build.ts";

// Paying in a real browser without JavaScript: our buy and unlock forms post to the server, which
// sends the browser to the hosted checkout (here the fake provider's page, allowed by the CSP's
// form-action because STRIPE_API_BASE points at it), and the provider sends it back to us.
let stack: CommerceStack;
let server: RunningServer;
let fake: FakeStripe;
let smtp: SmtpSink;
let browser: Browser;
let dir: string;

beforeAll(async () => {
  stack = await startCommerceStack("e2e_browser", { CHECKS_ALLOWED_TARGETS: `127.0.0.1:${testBuild().port}` });
  ({ server, fake, smtp, dir } = stack);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function open(path: string): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: false,
    acceptDownloads: true,
  });
  await page.goto(`${server.url}${path}`);
  return page;
}

async function mailTo(address: string): Promise<string> {
  await expect
    .poll(() => smtp.received.some((message) => message.to.includes(address)), { timeout: 15_000 })
    .toBe(true);
  return mimePart(smtp.received.find((message) => message.to.includes(address))?.raw ?? "", "text/plain");
}

describe("paying in a real browser", () => {
  it("buys an item from the store page through the hosted page and downloads it from the return page", async () => {
    const page = await open("/store");
    await page.getByRole("button", { name: "Buy Agent-readiness checklist" }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
    await page.getByLabel("E-mail").fill("shopper@example.com");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${server.url}/store/return\\?session_id=cs_test_`));
    expect(await page.locator("h1").textContent()).toContain("Thank you");
    await screenshot(page, "store-return");
    // axe runs as a script: audit the same page in a tab that may run it.
    const audit = await browser.newPage({ bypassCSP: true });
    await audit.goto(page.url());
    expect(await seriousViolations(audit)).toEqual([]);
    await audit.close();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: /^Download / }).click(),
    ]);
    const saved = join(dir, "downloaded");
    await download.saveAs(saved);
    expect(
      (await readFile(saved)).equals(await readFile(join(process.cwd(), "content/files/agent-readiness-checklist.md"))),
    ).toBe(true);
    expect(await mailTo("shopper@example.com")).toContain("/api/v1/downloads/");
    await page.close();
  });

  it("unlocks a report with a credit pack bought by card, and the e-mailed code unlocks another", {
    timeout: 60_000,
  }, async () => {
    const runCheck = async (): Promise<Page> => {
      const page = await open("/checks");
      await page.getByLabel(/^Site/).fill(server.url);
      await page.getByRole("button", { name: "Run the check" }).click();
      await expect.poll(() => page.url(), { timeout: 15_000 }).toMatch(/\/checks\/[0-9a-f-]{36}$/);
      return page;
    };
    const page = await runCheck();
    const reportUrl = page.url();
    expect(await page.getByRole("group", { name: "What to buy" }).count()).toBe(1);
    await page.getByRole("radio", { name: /^5 report unlocks/ }).check();
    await page.getByLabel(/^E-mail/).fill("payer@example.com");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${fake.url}/pay/cs_test_`));
    expect(await page.locator("#total").textContent()).toBe("35.00 EUR");
    await page.getByRole("button", { name: "Pay", exact: true }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${reportUrl}\\?session_id=cs_test_`));
    expect(await page.getByRole("status").first().textContent()).toContain("Payment received");
    expect(
      (await page.getByText("How to fix it").count()) + (await page.getByText(/^Evidence/).count()),
    ).toBeGreaterThan(0);
    await screenshot(page, "check-report-unlocked");

    const code = creditCodeIn(await mailTo("payer@example.com"));
    expect(code).not.toBe("");
    const second = await runCheck();
    await second.getByLabel(/^Credit code/).fill(code.toLowerCase());
    await second.getByRole("button", { name: "Use one credit" }).click();
    expect(await second.getByRole("status").first().textContent()).toContain("3 credits left");
    await page.close();
    await second.close();
  });
});
