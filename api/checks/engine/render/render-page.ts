import { performance } from "node:perf_hooks";
import type { BrowserContext, Page, Response } from "playwright-core";
import { z } from "zod";
import { agentTreeViolations } from "./agent-tree.ts";
import type { RenderedPage, RenderedRole } from "./rendered-site.ts";
import { WebMcpEvents } from "./webmcp-events.ts";

export interface PageOptions {
  role: RenderedRole;
  url: string;
  /** performance.now() by which the page must be read. */
  deadline: number;
  /** How long the page may go on after `load` before it is read (scripts that fetch and inject late). */
  settleMs: number;
  /** Run the agent-accessibility-tree rules on this page. */
  agentTree: boolean;
  /** The DOM is read up to this many characters. */
  maxHtmlChars: number;
}

/**
 * Cumulative layout shift as the Layout Instability API defines it and Lighthouse reports it: unexpected shifts
 * (no input in the 500 ms before) grouped in session windows (gaps under 1 s, at most 5 s long), the largest window's
 * sum. The buffered observer sees the shifts from the start of the page. Runs in the page.
 */
function measureLayoutShift(): Promise<number> {
  interface Shift extends PerformanceEntry {
    value: number;
    hadRecentInput: boolean;
  }
  return new Promise((resolve) => {
    const entries: Shift[] = [];
    const observer = new PerformanceObserver((list) => entries.push(...(list.getEntries() as Shift[])));
    observer.observe({ type: "layout-shift", buffered: true });
    setTimeout(() => {
      entries.push(...(observer.takeRecords() as Shift[]));
      observer.disconnect();
      let largest = 0;
      let window = 0;
      let windowStart = 0;
      let previous = Number.NEGATIVE_INFINITY;
      for (const entry of entries.filter((shift) => !shift.hadRecentInput)) {
        if (entry.startTime - previous >= 1000 || entry.startTime - windowStart >= 5000) {
          window = 0;
          windowStart = entry.startTime;
        }
        window += entry.value;
        previous = entry.startTime;
        largest = Math.max(largest, window);
      }
      resolve(largest);
    }, 0);
  });
}

const ShiftSchema = z.number().min(0).max(1_000);
const FormsSchema = z.int().min(0);

const remaining = (deadline: number): number => Math.max(0, Math.floor(deadline - performance.now()));
/** What a page's reading (DOM, layout shift, axe, tool issues) keeps of the time limit, so a page that never loads is still read. */
const READ_RESERVE_MS = 2_500;
const SERVER_HTML_WAIT_MS = 500;

function describeFailure(error: unknown): string {
  const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  return /Timeout/i.test(message) ? "the page did not finish loading within the rendering's time limit" : message;
}

/** Reads what the page is now; each read is bounded by the deadline (and `atMostMs`), null when the page cannot tell. */
async function bounded<T>(
  deadline: number,
  read: () => Promise<T>,
  atMostMs = Number.POSITIVE_INFINITY,
): Promise<T | null> {
  const left = Math.min(remaining(deadline), atMostMs);
  if (left === 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), left);
  });
  try {
    return await Promise.race([read().catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function unannotatedForms(page: Page): Promise<number> {
  const count: unknown = await page.evaluate(
    () =>
      [...document.forms].filter((form) => !form.getAttribute("toolname") && !form.getAttribute("tooldescription"))
        .length,
  );
  return FormsSchema.catch(0).parse(count);
}

/**
 * Loads one page in the scan's context and reads it once it has settled: its DOM, its layout shift, the WebMCP tools
 * it registered and their schema problems, and (on the homepage) the agent-accessibility-tree rules. A page that does
 * not finish loading in time is read as it stands, with the reason.
 */
export async function renderPage(
  context: BrowserContext,
  options: PageOptions,
): Promise<Omit<RenderedPage, "refused">> {
  const started = performance.now();
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    const webMcp = await WebMcpEvents.attach(cdp);
    const navigation: { response: Response | null } = { response: null };
    let error: string | null = null;
    // The main document's last answer (after redirects), also when the page then fails to finish loading in time.
    page.on("response", (response) => {
      if (response.request().isNavigationRequest() && response.frame() === page.mainFrame())
        navigation.response = response;
    });
    try {
      const timeout = Math.max(1, remaining(options.deadline) - READ_RESERVE_MS);
      await page.goto(options.url, { waitUntil: "load", timeout });
    } catch (failure) {
      error = describeFailure(failure);
    }
    if (error === null)
      await page.waitForTimeout(Math.max(0, Math.min(options.settleMs, remaining(options.deadline) - READ_RESERVE_MS)));
    const html = (await bounded(options.deadline, () => page.content())) ?? "";
    const answered = navigation.response;
    // A body that never ends (the page did not load) is not waited for: what matters then is that it did not load.
    const serverHtml =
      answered === null ? "" : ((await bounded(options.deadline, () => answered.text(), SERVER_HTML_WAIT_MS)) ?? "");
    const shift = await bounded(options.deadline, () => page.evaluate(measureLayoutShift));
    const forms = (await bounded(options.deadline, () => unannotatedForms(page))) ?? 0;
    const agentTree = options.agentTree ? await bounded(options.deadline, () => agentTreeViolations(page)) : null;
    const issues = (await bounded(options.deadline, () => webMcp.schemaIssues())) ?? [];
    return {
      role: options.role,
      url: options.url,
      finalUrl: page.url(),
      status: answered === null ? null : answered.status(),
      serverHtml: serverHtml.slice(0, options.maxHtmlChars),
      html: html.slice(0, options.maxHtmlChars),
      durationMs: Math.round(performance.now() - started),
      layoutShift: ShiftSchema.nullable().catch(null).parse(shift),
      webMcpSupported: webMcp.supported,
      tools: webMcp.registered(),
      toolIssues: issues,
      unannotatedForms: forms,
      agentTree,
      error,
    };
  } finally {
    await page.close().catch(() => undefined);
  }
}
