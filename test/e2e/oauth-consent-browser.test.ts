import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectPageErrors, fitsViewport, launchBrowser, seriousViolations } from "../helpers/browser.ts";
import { type OAuthBed, pkce, RawClient, startOAuthBed } from "../helpers/oauth.ts";

let bed: OAuthBed;
let browser: Browser;
let app: Server;
let appUrl: string;
/** What the client's redirect URI received: the browser really goes there (a small app on loopback). */
const landed: URL[] = [];
let client: RawClient;

beforeAll(async () => {
  app = createServer((request, response) => {
    landed.push(new URL(request.url ?? "/", appUrl));
    if (request.url?.startsWith("/framing"))
      response
        .writeHead(200, { "content-type": "text/html" })
        .end(
          `<!doctype html><title>Framing</title><iframe id="victim" src="${new URL(request.url, appUrl).searchParams.get("src")}"></iframe>`,
        );
    else
      response
        .writeHead(200, { "content-type": "text/html" })
        .end("<!doctype html><title>Back in the app</title><p>Signed in.</p>");
  });
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  bed = await startOAuthBed();
  client = new RawClient(bed.base, `${appUrl}/callback`);
  await client.register({ client_name: "Browser App" });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await bed?.close();
  await new Promise<void>((resolve) => app.close(() => resolve()));
});

describe("the consent page in a real browser", () => {
  /** The consent page of a fresh request, in a tab that may run axe (a script, so a context that runs scripts). */
  async function audited(width = 375) {
    const page = await browser.newPage({ viewport: { width, height: 800 }, bypassCSP: true });
    await page.goto(client.authorizationUrl(pkce().challenge).href);
    return page;
  }

  it("has no serious accessibility violation and fits a phone", async () => {
    const page = await audited();
    await expect(page.title()).resolves.toBe("Allow Browser App to act for an agent registration?");
    expect(await seriousViolations(page)).toEqual([]);
    expect(await fitsViewport(page)).toBe(true);
    await page.close();
  });

  it("needs no JavaScript: a person registers and allows, and lands back in the app", async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    const errors = collectPageErrors(page);
    await page.goto(client.authorizationUrl(pkce().challenge).href);
    await page.getByLabel("Register a new agent").check();
    await page.getByLabel(/^Agent name/).fill("Browser Scout");
    await page.getByLabel(/^Kind of agent/).fill("research assistant");
    await page.getByLabel("Operated by").selectOption("individual");
    await page.getByRole("button", { name: "Allow" }).click();
    // Two 303s later (the library's resume URL, then the client's redirect URI), the form's CSP allowing both.
    await page.waitForURL(`${appUrl}/callback**`);
    // The app's own requests (its favicon) may land after the callback: take the callback's.
    const back = landed.filter((url) => url.pathname === "/callback").at(-1);
    expect(back?.searchParams.get("code")).toBeTruthy();
    expect(back?.searchParams.get("iss")).toBe(bed.base);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("shows a mistake beside its field, still with no serious violation", async () => {
    const page = await audited(1024);
    await page.getByLabel("Register a new agent").check();
    await page.getByRole("button", { name: "Allow" }).click();
    await expect(page.getByRole("alert").first().textContent()).resolves.toContain("There is a problem");
    expect(await page.getByLabel(/^Agent name/).getAttribute("aria-invalid")).toBe("true");
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it("cannot be framed by another site (frame-ancestors 'none')", async () => {
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on("console", (message) => refused.push(message.text()));
    const consent = client.authorizationUrl(pkce().challenge).href;
    await page.goto(`${appUrl}/framing?src=${encodeURIComponent(consent)}`);
    await page.waitForTimeout(500);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
    const framed = frame ? await frame.evaluate(() => document.title).catch(() => "") : "";
    expect(framed).not.toContain("Allow Browser App");
    expect(refused.join("\n")).toMatch(/frame-ancestors|Refused to display|X-Frame-Options/);
    await page.close();
  });
});
