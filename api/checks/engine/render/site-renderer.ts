import type { Browser } from "playwright-core";
import { Slots } from "../budget/slots.ts";
import type { CheckerSettings } from "../settings.ts";
import { GuardProxy } from "./guard/guard-proxy.ts";
import { launchGuardedChromium, missingBrowser } from "./launch.ts";
import { DEFAULT_RENDER_LIMITS, type RenderLimits } from "./render-limits.ts";
import { type RenderRequest, renderSite } from "./render-session.ts";
import type { RenderOutcome } from "./rendered-site.ts";

/** Past the rendering's own limit (when its context is closed), how long a browser may take to answer before it is replaced. */
const WEDGED_AFTER_MS = 5_000;

export interface SiteRendererOptions {
  /** The Chromium binary (CHROMIUM_PATH, else Debian's). */
  executablePath: string;
  /** The browser's own traffic is judged by these settings' address policy too (and refused outright). */
  settings: CheckerSettings;
  limits?: Partial<RenderLimits>;
}

/** The shared browser, the refusing proxy its own traffic goes to, and how much it has done. */
interface BrowserHolder {
  browser: Browser;
  sink: GuardProxy;
  pages: number;
  active: number;
  retired: boolean;
}

/**
 * One per instance: renders scans' pages in one shared Chromium, launched on first use, a fresh context per scan and
 * at most `concurrency` scans at once (the others wait in line, up to `queueWaitMs`). The browser is replaced after
 * `pagesPerBrowser` pages or as soon as it crashes. Without a browser installed, every rendering answers
 * `unavailable` and the scan's static report stands.
 */
export class SiteRenderer {
  private readonly options: SiteRendererOptions;
  readonly limits: RenderLimits;
  private readonly slots: Slots;
  private holder: BrowserHolder | null = null;
  private launching: Promise<BrowserHolder> | null = null;
  private readonly open = new Set<BrowserHolder>();
  private closed = false;
  /** Browsers launched so far (a crash or recycling launches another), for the logs and the benchmark. */
  launches = 0;

  constructor(options: SiteRendererOptions) {
    this.options = options;
    this.limits = { ...DEFAULT_RENDER_LIMITS, ...options.limits };
    this.slots = new Slots(this.limits.concurrency);
  }

  async render(request: RenderRequest): Promise<RenderOutcome> {
    const missing = await missingBrowser(this.options.executablePath);
    if (missing !== null) return { status: "unavailable", note: `not rendered: ${missing}; the static report stands` };
    if (!(await this.waitForSlot())) {
      const seconds = this.limits.queueWaitMs / 1000;
      return { status: "failed", note: `not rendered: the renderer stayed busy with other scans for ${seconds} s` };
    }
    let holder: BrowserHolder | null = null;
    try {
      holder = await this.browser();
      holder.active += 1;
      const site = await this.withinLimit(renderSite(holder.browser, request, this.limits, request.settings.signer));
      if (site === null) {
        // The session closes its context at its limit; a browser that still has not answered is wedged.
        this.retire(holder);
        return {
          status: "failed",
          note: `not rendered: the browser did not answer within ${this.limits.timeMs / 1000} s`,
        };
      }
      holder.pages += site.pages.length;
      return site;
    } catch (error) {
      const message = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
      if (holder !== null && !holder.browser.isConnected()) this.retire(holder);
      return { status: "failed", note: `not rendered: ${holder === null ? "Chromium did not start: " : ""}${message}` };
    } finally {
      if (holder !== null) {
        holder.active -= 1;
        if (holder.pages >= this.limits.pagesPerBrowser) this.retire(holder);
        if (holder.retired && holder.active === 0) await this.shut(holder);
      }
      this.slots.release();
    }
  }

  /** Closes the browser; renders still running end with it. */
  async close(): Promise<void> {
    this.closed = true;
    this.holder = null;
    await Promise.all([...this.open].map((holder) => this.shut(holder)));
  }

  /** The rendering, or null when it has not ended a few seconds past its limit. */
  private async withinLimit<T>(rendering: Promise<T>): Promise<T | null> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.limits.timeMs + WEDGED_AFTER_MS);
    });
    try {
      return await Promise.race([rendering, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A slot within the wait limit, or false; a slot that comes after the wait gave up is handed straight back. */
  private async waitForSlot(): Promise<boolean> {
    const acquired = this.slots.acquire();
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.limits.queueWaitMs);
    });
    const won = await Promise.race([acquired.then(() => true as const), gaveUp]);
    clearTimeout(timer);
    if (!won) void acquired.then(() => this.slots.release());
    return won;
  }

  private async browser(): Promise<BrowserHolder> {
    if (this.closed) throw new Error("the renderer is closed");
    if (this.holder !== null && !this.holder.retired) return this.holder;
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    const holder = await this.launching;
    this.holder = holder;
    return holder;
  }

  private async launch(): Promise<BrowserHolder> {
    const sink = await GuardProxy.start({
      settings: this.options.settings,
      lookup: async () => [],
      budget: null,
      timeoutMs: 1_000,
    });
    try {
      const browser = await launchGuardedChromium(this.options.executablePath, sink.url);
      this.launches += 1;
      const holder: BrowserHolder = { browser, sink, pages: 0, active: 0, retired: false };
      this.open.add(holder);
      if (this.closed) {
        await this.shut(holder);
        throw new Error("the renderer is closed");
      }
      // A crash: the next scan launches a fresh browser; the scans on this one fail with the reason.
      browser.once("disconnected", () => this.retire(holder));
      return holder;
    } catch (error) {
      await sink.close();
      throw error;
    }
  }

  /** No new scan goes to this browser; it is closed once its last scan ends. */
  private retire(holder: BrowserHolder): void {
    if (holder.retired) return;
    holder.retired = true;
    if (this.holder === holder) this.holder = null;
    if (holder.active === 0) void this.shut(holder);
  }

  private async shut(holder: BrowserHolder): Promise<void> {
    if (!this.open.delete(holder)) return;
    await holder.browser.close().catch(() => undefined);
    await holder.sink.close();
  }
}
