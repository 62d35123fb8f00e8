import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBotProtectedSite } from "../fixtures/sites/bot-protected.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { issueStaffToken } from "../helpers/admin-cli.ts";
import { collectPageErrors, fitsViewport, launchBrowser, screenshot, seriousViolations } from "../helpers/browser.ts";
import { PAGE_TEMPLATES, type PageTemplate } from "../helpers/page-templates.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";

let server: RunningServer;
let browser: Browser;
let dir: string;
let reportPath: string;
let blockedPath: string;
let guarded: FixtureSite;
let monitorPath: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "page-templates-"));
  guarded = await startBotProtectedSite();
  const databaseUrl = `file:${join(dir, "service.db")}`;
  server = await startServer({
    DATABASE_URL: databaseUrl,
    CHECKS_ALLOWED_TARGETS: `127.0.0.1:${testBuild().port},${guarded.hostPort}`,
    MONITORS_INTERVAL_MS: "300",
  });
  browser = await launchBrowser();
  // The report template needs a report: check the service itself, as a visitor would.
  const response = await fetch(`${server.url}/api/v1/checks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domain: server.url }),
  });
  expect(response.status).toBe(200);
  reportPath = `/checks/${((await response.json()) as { id: string }).id}`;
  // A report whose checks a site's bot protection blocked: the page says so, and what to allow.
  const blocked = await fetch(`${server.url}/api/v1/checks`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ domain: guarded.origin }),
  });
  blockedPath = `/checks/${((await blocked.json()) as { id: string }).id}`;
  // The monitor template needs a monitor with a run: an agent watches the service itself.
  const token = await issueStaffToken({ DATABASE_URL: databaseUrl }, "Pages", "monitors:write");
  const monitor = (await (
    await fetch(`${server.url}/api/v1/agents/monitors`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ domain: server.url }),
    })
  ).json()) as { id: string };
  monitorPath = `/monitors/${monitor.id}`;
  for (let tries = 0; tries < 300; tries++) {
    const read = (await (await fetch(`${server.url}/api/v1/monitors/${monitor.id}`)).json()) as { latest: unknown };
    if (read.latest) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await guarded?.close();
  await rm(dir, { recursive: true, force: true });
});

const templates = (): PageTemplate[] => [
  ...PAGE_TEMPLATES,
  { name: "check-report", path: reportPath },
  { name: "monitor", path: monitorPath },
  { name: "check-report-blocked", path: blockedPath },
];

describe("the report of a site behind bot protection", () => {
  it("says it is incomplete, how many checks were blocked and what to allow, and shows no score", async () => {
    const html = await (await fetch(`${server.url}${blockedPath}`)).text();
    expect(html).toMatch(/Blocked by the site's bot protection/);
    expect(html).toMatch(/kept our scanner from judging \d+ checks/);
    expect(html).toMatch(/What to allow:/);
    expect(html).toMatch(
      /Allow requests whose Web Bot Auth signature verifies .*the User-Agent &quot;AgentReadyBot\/1\.0/,
    );
    expect(html).toMatch(/aria-label="Incomplete report: no score"/);
  });
});

describe("watching a site from its report (issue 31)", () => {
  it("follows Watch this site to the monitor form with the site filled in, and a monitor's page to its latest report", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}${reportPath}`);
    await Promise.all([
      page.waitForURL(/\/monitors\?domain=/),
      page.getByRole("link", { name: "Watch this site" }).click(),
    ]);
    expect(await page.getByLabel(/^Site/).inputValue()).toBe(server.url);
    expect(await page.getByLabel(/^E-mail/).inputValue()).toBe("");
    await page.goto(`${server.url}${monitorPath}`);
    await Promise.all([
      page.waitForURL(/\/checks\/[0-9a-f-]{36}$/),
      page.getByRole("link", { name: "Open the latest report" }).click(),
    ]);
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe(`Readiness of ${server.url}`);
    await page.close();
  });
});

// Wide in the light theme and narrow in the dark one: every template is seen at both sizes and in
// both themes, with JavaScript on and the real CSP (axe is evaluated through DevTools, not a script tag).
describe.each([
  { width: 1280, dark: false },
  { width: 375, dark: true },
])("every page template at $width px (dark: $dark)", ({ width, dark }) => {
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: dark ? "dark" : "light" });
    errors = collectPageErrors(page);
  });
  afterAll(() => page?.close());

  it("has no serious or critical axe violation, fits the window, logs no error, and is photographed", async () => {
    for (const template of templates()) {
      errors.length = 0;
      let response = await page.goto(`${server.url}${template.path}`);
      if (template.submit) {
        const button = page.getByRole("button", { name: template.submit }).first();
        [response] = await Promise.all([page.waitForNavigation(), button.click()]);
      }
      expect(response?.status(), template.name).toBe(template.status ?? 200);
      expect(await seriousViolations(page), template.name).toEqual([]);
      expect(await fitsViewport(page), template.name).toBe(true);
      // Chromium logs a page answered with an error status as a failed resource; that status is asserted above.
      expect(
        errors.filter((error) => !/status of (404|410|503)/.test(error)),
        template.name,
      ).toEqual([]);
      await screenshot(page, `template-${template.name}-${width}`);
    }
  }, 180_000);
});
