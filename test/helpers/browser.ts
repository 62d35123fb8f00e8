import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { QUIET_CHROMIUM_ARGS } from "../../src/lib/chromium.ts";
import { chromiumPath } from "./chromium.ts";

/**
 * Debian's Chromium (`npm test` makes sure it is there first), headless, never a downloaded browser. The flags keep it off the network
 * (this machine refuses outside connections) and make it start cleanly as root in a sandbox.
 */
export function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", ...QUIET_CHROMIUM_ARGS, ...extraArgs],
  });
}

export const SCREENSHOTS = join(process.cwd(), "test-results", "screenshots");

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

let axeSource: string | undefined;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** axe-core's serious and critical violations on the page as it is now (`window.axe` is typed in render/agent-tree.ts). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (a <script> tag
  // would be refused), so the audit sees the page exactly as a visitor gets it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact ?? null,
      help: violation.help,
      nodes: violation.nodes.length,
    }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling at 375 px). */
export async function fitsViewport(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

/**
 * Collects what the page reports as broken while a test uses it: console errors (a CSP refusal is
 * one), uncaught exceptions and failed requests.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("requestfailed", (request) => errors.push(`${request.url()}: ${request.failure()?.errorText ?? "failed"}`));
  return errors;
}
