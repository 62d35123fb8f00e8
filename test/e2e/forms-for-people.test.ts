import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computeLevel } from "../../api/checks/engine/levels.ts";
import { Database } from "../../api/db/database.ts";
import type { Finding } from "../../src/schemas/report.ts";
import { fitsViewport, screenshot, seriousViolations } from "../helpers/browser.ts";
import { copyReport, lookupKeysOf } from "../helpers/reports.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";
import { launchWebMcpBrowser, webMcpReport } from "../helpers/webmcp.ts";

// The forms and the report page as a person meets them in Chromium: plain words, each said once;
// and as a browser agent meets them: WebMCP tools, valid by the rules Lighthouse's audits apply.
let server: RunningServer;
let browser: Browser;
let reportPath = "";
let dir: string;
let databaseUrl: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "forms-"));
  databaseUrl = `file:${join(dir, "service.db")}`;
  server = await startServer({ DATABASE_URL: databaseUrl, CHECKS_ALLOWED_TARGETS: `127.0.0.1:${testBuild().port}` });
  browser = await launchWebMcpBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/**
 * The same report as a site whose checks are all that apply but that uses no OAuth (as this service did
 * before it signed MCP clients in): its OAuth checks n/a, so level 5 is out of its reach. Written into
 * the database as a copy under a new id; answers the copy's page path.
 */
async function asIfWithoutOAuth(path: string): Promise<string> {
  const database = new Database({ url: databaseUrl, authToken: undefined, timeoutMs: 5_000 });
  try {
    const keys = await lookupKeysOf(databaseUrl);
    const id = await copyReport({ db: database.client, keys }, path.split("/").pop() ?? "");
    const row = await database.client.queryOne({
      sql: "SELECT result FROM check_reports WHERE id = ?",
      args: [keys.hash("report", id)],
    });
    const result = JSON.parse(String(row?.result)) as { findings: Finding[]; level: unknown };
    for (const finding of result.findings)
      if (finding.id === "oauth.prm" || finding.id === "oauth.as") {
        finding.status = "n/a";
        finding.message = "nothing on the site uses OAuth";
      }
    const level = computeLevel(result.findings);
    result.level = level;
    await database.client.execute({
      sql: "UPDATE check_reports SET result = ?, level = ? WHERE id = ?",
      args: [JSON.stringify(result), level.value, keys.hash("report", id)],
    });
    return `/checks/${id}`;
  } finally {
    database.close();
  }
}

/** A page as a person without JavaScript sees it. */
async function open(path: string, width = 1280): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 }, javaScriptEnabled: false });
  await page.goto(`${server.url}${path}`);
  return page;
}

/** How often `text` appears in what the page shows. */
async function timesShown(page: Page, text: string): Promise<number> {
  const shown = await page.locator("body").innerText();
  return shown.split(text).length - 1;
}

async function checkSite(page: Page, site: string): Promise<void> {
  await page.getByLabel(/^Site/).fill(site);
  await page.getByRole("button", { name: "Run the check" }).click();
}

describe("the checks form speaks plainly", () => {
  it("says once, without a system code, that a domain cannot be found", async () => {
    const page = await open("/checks");
    await checkSite(page, "no-such-site.invalid");
    expect(await page.getByRole("alert").innerText()).toContain("We could not find this domain; check the spelling.");
    expect(await timesShown(page, "We could not find this domain")).toBe(1);
    expect(await page.locator("body").innerText()).not.toMatch(/ENOTFOUND|EAI_AGAIN|does not resolve/);
    expect(await page.getByLabel(/^Site/).getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel(/^Site/).inputValue()).toBe("no-such-site.invalid");
    await screenshot(page, "checks-form-unknown-domain");
    await page.close();
  });

  it("explains a private address in words, also on a narrow screen", async () => {
    const page = await open("/checks", 375);
    await checkSite(page, "http://10.1.2.3/");
    const alert = await page.getByRole("alert").innerText();
    expect(alert).toContain("This address is on a private or local network, so we cannot reach it.");
    expect(alert).not.toMatch(/RFC 1918|10\.0\.0\.0\/8|non-public/);
    expect(await fitsViewport(page)).toBe(true);
    await page.close();
  });
});

describe("the waiting-list form speaks plainly", () => {
  it("asks for the missing address and the consent in words a person uses, each once", async () => {
    const page = await open("/waitlist");
    await page.getByRole("button", { name: "Join the waiting list" }).click();
    const shown = await page.locator("body").innerText();
    expect(await page.getByRole("alert").innerText()).toContain("Please correct the 2 answers below.");
    expect(await page.locator("#email-error").innerText()).toBe("Enter your e-mail address.");
    expect(await page.locator("#consent-error").innerText()).toContain("Tick the box to agree to the privacy policy");
    expect(await timesShown(page, "Enter your e-mail address.")).toBe(1);
    expect(shown).not.toMatch(/must be|is required|invalid/i);
    await screenshot(page, "waitlist-form-plain-errors");

    await page.getByLabel("E-mail address").fill("ada@example");
    await page.getByLabel(/I agree to the privacy policy/).check();
    await page.getByRole("button", { name: "Join the waiting list" }).click();
    expect(await page.locator("#email-error").innerText()).toBe(
      "Enter your e-mail address in full, such as name@example.com.",
    );
    expect(await page.getByRole("alert").innerText()).toContain("Please correct the answer below.");
    await page.close();
  });
});

describe("the report page reads in the order of a good report", () => {
  it("says the verdict first, then what to fix, then every check, then how to unlock, and explains a level out of reach in the detail", {
    timeout: 60_000,
  }, async () => {
    const page = await open("/checks");
    await checkSite(page, server.url);
    await expect.poll(() => page.url(), { timeout: 30_000 }).toMatch(/\/checks\/[0-9a-f-]{36}$/);
    reportPath = new URL(page.url()).pathname;
    expect(await page.getByRole("img", { name: "Score 100 out of 100" }).count()).toBe(1);
    const top = async (name: string | RegExp) =>
      (await page.getByRole("heading", { name, exact: typeof name === "string" }).boundingBox())?.y ?? Number.NaN;
    // This service reaches every level (Web Bot Auth and OAuth metadata at level 5): nothing left to explain.
    expect(await page.locator("main").innerText()).toContain("Level 5: every level reached");
    // A site like it without OAuth stops at level 4, which the page explains in the detail.
    await page.goto(`${server.url}${await asIfWithoutOAuth(reportPath)}`);
    const verdict = page.locator("section.verdict");
    expect(await verdict.innerText()).toContain("Every check that applies to this site passes.");
    expect(await verdict.innerText()).toContain("Level 4 is the highest a site like this one can reach");
    const order = [
      (await verdict.boundingBox())?.y ?? Number.NaN,
      await top("What to fix"),
      await top("Every check"),
      await top("About level 4"),
      await top("Unlock the evidence and fixes"),
    ];
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await page.locator("main").innerText()).not.toMatch(/Why level/);
    // The metadata line: plain facts, no nested parentheses.
    expect(await page.locator("h1 + p.meta").innerText()).toMatch(/^Checked [^()]+$/);
    const section = page.locator('section[aria-labelledby="level-heading"]');
    const text = await section.innerText();
    expect(text).toContain("do not apply to this site");
    expect(text).toContain("neither passed nor failed");
    // Nothing that cannot apply is listed as a requirement to meet.
    expect(await section.locator("li").count()).toBe(0);
    expect(text).not.toMatch(/policy\.webbotauth|oauth\.as|oauth\.prm|a2a\.card|n\/a:/);
    // Each way to unlock is its own part under its own heading.
    const unlock = page.locator("section.unlock");
    expect(await unlock.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual([
      "Pay by card",
      "Use a credit code",
    ]);
    await screenshot(page, "check-report-hierarchy");
    await page.close();

    const audit = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    await audit.goto(`${server.url}${reportPath}`);
    expect(await seriousViolations(audit)).toEqual([]);
    await audit.close();
  });
});

describe("a form that comes back with errors (without JavaScript)", () => {
  /** The focused element, and each field's aria-invalid and the text of what its aria-describedby names. */
  async function errorState(page: Page, fields: string[]) {
    const active = () =>
      page.evaluate(() => document.activeElement?.getAttribute("role") ?? document.activeElement?.tagName);
    // The browser runs autofocus when it next renders, which may come just after the load event.
    await expect.poll(active).toBe("alert");
    const focused = await active();
    const described = await page.evaluate(
      (ids) =>
        ids.map((id) => {
          const field = document.getElementById(id);
          const names = (field?.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
          return {
            id,
            invalid: field?.getAttribute("aria-invalid"),
            description: names
              .map((name) => document.getElementById(name)?.textContent?.trim() ?? `(no #${name})`)
              .join(" "),
          };
        }),
      fields,
    );
    return { focused, described };
  }

  it("puts focus on the waiting list's error summary and describes each bad field by its message", async () => {
    const page = await open("/waitlist", 375);
    await page.getByLabel("E-mail address").fill("ada@example");
    await page.getByRole("button", { name: "Join the waiting list" }).click();
    const { focused, described } = await errorState(page, ["email", "consent"]);
    expect(focused).toBe("alert");
    expect(await page.locator(":focus").innerText()).toContain("Please correct the 2 answers below.");
    expect(described).toEqual([
      { id: "email", invalid: "true", description: "Enter your e-mail address in full, such as name@example.com." },
      {
        id: "consent",
        invalid: "true",
        description: expect.stringContaining("Tick the box to agree to the privacy policy"),
      },
    ]);
    expect(await page.getByLabel("Name").getAttribute("aria-invalid")).toBeNull();
    await page.close();
  });

  it("puts focus on the checks form's error summary and describes the address by it", async () => {
    const page = await open("/checks", 375);
    await checkSite(page, "no-such-site.invalid");
    const { focused, described } = await errorState(page, ["domain"]);
    expect(focused).toBe("alert");
    expect(described).toEqual([
      { id: "domain", invalid: "true", description: expect.stringContaining("We could not find this domain") },
    ]);
    await page.close();
  });

  it("puts focus on the credit code's error summary on a report and describes the code by its message", async () => {
    expect(reportPath).not.toBe("");
    const page = await open(reportPath, 375);
    await page.getByLabel(/^Credit code/).fill("not-a-code");
    await page.getByRole("button", { name: "Use one credit" }).click();
    const { focused, described } = await errorState(page, ["code"]);
    expect(focused).toBe("alert");
    expect(await page.locator(":focus").innerText()).toContain("Credit code");
    expect(described[0]?.invalid).toBe("true");
    expect(described[0]?.description).toMatch(/credit code/i);
    expect(await page.getByLabel(/^Credit code/).inputValue()).toBe("not-a-code");
    expect(await fitsViewport(page)).toBe(true);
    await screenshot(page, "report-credit-code-error");
    await page.close();
  });
});

describe("our own forms are WebMCP tools (Lighthouse's webmcp audits)", () => {
  const expected: Record<string, string[]> = {
    "/waitlist": ["join_waitlist"],
    "/checks": ["run_readiness_check"],
    "/store": ["buy_agent_readiness_checklist", "buy_discovery_starter_kit"],
    "/store/discovery-starter-kit": ["buy_discovery_starter_kit"],
  };

  it.each(Object.entries(expected))("%s registers its forms as tools with valid schemas", async (path, names) => {
    const page = await browser.newPage();
    const report = await webMcpReport(page, `${server.url}${path}`);
    // webmcp-registered-tools and webmcp-schema-validity are not applicable without WebMCP or without tools.
    expect(report.supported).toBe(true);
    const tools = new Map(report.tools.map((tool) => [tool.name, tool]));
    for (const name of names) expect(tools.get(name)?.description.length ?? 0, name).toBeGreaterThan(40);
    // webmcp-schema-validity scores 1 only without any FormModelContext* issue, error or warning.
    expect(report.issues).toEqual([]);
    // webmcp-form-coverage lists forms with neither toolname nor tooldescription: none here.
    expect(report.unannotatedForms).toEqual([]);
    await page.close();
  });

  it("the report page's forms are tools too", async () => {
    expect(reportPath).not.toBe("");
    const page = await browser.newPage();
    const report = await webMcpReport(page, `${server.url}${reportPath}`);
    expect(report.unannotatedForms).toEqual([]);
    expect(report.issues).toEqual([]);
    await page.close();
  });

  it("describes each field of the checks form to an agent", async () => {
    const page = await browser.newPage();
    const report = await webMcpReport(page, `${server.url}/checks`);
    const schema = report.tools.find((tool) => tool.name === "run_readiness_check")?.inputSchema;
    expect(schema).toMatchObject({
      type: "object",
      required: ["domain"],
      properties: {
        domain: { type: "string", description: expect.stringContaining("example.com") },
        profile: { description: expect.stringContaining("kind of site") },
      },
    });
    await page.close();
  });
});
