import type { RenderBudgetLimits } from "./guard/render-budget.ts";

/** How much one scan's rendering, and one instance's renderer, may take (docs: checks, "Rendered checks"). */
export interface RenderLimits extends RenderBudgetLimits {
  /** Pages per scan: the homepage, the soft-404 probe, one deep page. */
  maxPages: number;
  /** One scan's rendering, from the moment it has the browser to the last page read. */
  timeMs: number;
  /** How long a scan waits for one of the instance's render slots before its rendering is given up. */
  queueWaitMs: number;
  /** Renders at once per instance; the rest wait in line. */
  concurrency: number;
  /** How long a page may go on after `load` before it is read. */
  settleMs: number;
  /** The serialised DOM read per page, in characters. */
  maxHtmlChars: number;
  /** Pages one browser renders before it is replaced by a fresh one (memory that pages leave behind). */
  pagesPerBrowser: number;
}

export const DEFAULT_RENDER_LIMITS: RenderLimits = Object.freeze({
  maxPages: 3,
  timeMs: 15_000,
  queueWaitMs: 15_000,
  concurrency: 2,
  settleMs: 1_000,
  maxHtmlChars: 2_000_000,
  pagesPerBrowser: 60,
  maxRequests: 150,
  maxBytes: 10_000_000,
  maxHosts: 30,
});
