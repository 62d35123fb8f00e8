import { performance } from "node:perf_hooks";
import type { Browser, BrowserContext, Route } from "playwright-core";
import type { RequestSigner } from "../../../platform/signing/request-signature.ts";
import type { HostLookup } from "../fetch/address-guard.ts";
import { ScanScope } from "../fetch/scope/scan-scope.ts";
import { withoutElements } from "../parse/html.ts";
import type { CheckerSettings } from "../settings.ts";
import { GuardProxy } from "./guard/guard-proxy.ts";
import { RenderBudget } from "./guard/render-budget.ts";
import { PROXY_EVERYTHING } from "./launch.ts";
import { pageFacts } from "./page-facts.ts";
import type { RenderLimits } from "./render-limits.ts";
import { renderPage } from "./render-page.ts";
import type { RenderedPage, RenderedSite } from "./rendered-site.ts";

/** What one scan asks the renderer for. */
export interface RenderRequest {
  /** The origin being checked; its root is the homepage. */
  origin: string;
  /** A path that cannot exist (the scan's soft-404 probe), rendered to see what a browser shows there. */
  probeUrl: string;
  settings: CheckerSettings;
  lookup: HostLookup;
  signal?: AbortSignal;
}

// Resources a page does not need to show its text, links and tools: not fetched (the research's B4 bounds).
const SKIPPED_RESOURCES = new Set(["media", "font"]);
const PAGE_LIKE = /\.(?:pdf|zip|gz|png|jpe?g|gif|webp|svg|mp4|mp3|xml|json|txt|md)$/i;

/** The renderer's User-Agent: the browser's own, then the scanner's product token and where to read about it. */
export function rendererUserAgent(browserVersion: string, scannerUserAgent: string): string {
  const major = browserVersion.split(".")[0] ?? browserVersion;
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/${major}.0.0.0 Safari/537.36 ${scannerUserAgent}`;
}

/**
 * The deep page: the first same-origin link of the rendered homepage's content (navigation, header, footer and asides
 * left out: a product or an article rather than "About us") that is a page, not the homepage or a file.
 */
export function pickDeepPage(home: RenderedPage, origin: string, probeUrl: string): string | null {
  const root = new URL("/", origin).href;
  const content = withoutElements(home.html, ["nav", "header", "footer", "aside"]);
  for (const link of [...pageFacts(content, home.finalUrl).links, ...pageFacts(home.html, home.finalUrl).links]) {
    const url = new URL(link);
    url.search = "";
    if (url.origin !== origin || url.href === root || url.href === probeUrl || PAGE_LIKE.test(url.pathname)) continue;
    return link;
  }
  return null;
}

/**
 * Renders one scan's pages in a fresh browser context whose every request goes through a guard proxy of its own: the
 * homepage, the soft-404 probe, and one deep page. Service workers are blocked (their fetches would escape the
 * page's routing), downloads refused, media and fonts not fetched, and the pages' requests counted against the budget.
 * The requests the scanner would sign (ScanScope.signs: the checked origin over https) are signed as its own are.
 * Redirect hops, workers and WebSockets are not seen by the page's routing and go unsigned (docs: crawler).
 */
export async function renderSite(
  browser: Browser,
  request: RenderRequest,
  limits: RenderLimits,
  signer: RequestSigner | null,
): Promise<RenderedSite> {
  const started = performance.now();
  const deadline = started + limits.timeMs;
  const budget = new RenderBudget(limits);
  const proxy = await GuardProxy.start({
    settings: request.settings,
    lookup: request.lookup,
    budget,
    timeoutMs: request.settings.limits.requestTimeoutMs,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  const userAgent = rendererUserAgent(browser.version(), request.settings.userAgent);
  let context: BrowserContext | null = null;
  // The time limit holds whatever the page does: at the deadline the context and its pages are closed.
  const stop = setTimeout(() => void context?.close().catch(() => undefined), limits.timeMs + 1_000);
  const aborted = () => void context?.close().catch(() => undefined);
  request.signal?.addEventListener("abort", aborted, { once: true });
  try {
    context = await browser.newContext({
      proxy: { server: proxy.url, bypass: PROXY_EVERYTHING },
      serviceWorkers: "block",
      acceptDownloads: false,
      userAgent,
      viewport: { width: 1280, height: 800 },
    });
    await context.route("**/*", (route) =>
      routeRequest(route, budget, proxy, new ScanScope(request.origin, request.settings), signer),
    );
    const pages: RenderedPage[] = [];
    const render = async (role: RenderedPage["role"], url: string) => {
      const mark = proxy.refused.length;
      const page = await renderPage(context as BrowserContext, {
        role,
        url,
        deadline,
        settleMs: limits.settleMs,
        agentTree: role === "home",
        maxHtmlChars: limits.maxHtmlChars,
      });
      pages.push({ ...page, refused: proxy.refused.slice(mark) });
      return pages.at(-1) as RenderedPage;
    };
    const home = await render("home", new URL("/", request.origin).href);
    if (performance.now() < deadline) await render("probe", request.probeUrl);
    const deep = pickDeepPage(home, request.origin, request.probeUrl);
    if (deep !== null && pages.length < limits.maxPages && performance.now() < deadline) await render("deep", deep);
    return {
      status: "rendered",
      userAgent,
      pages,
      spending: {
        requests: budget.requests,
        connections: budget.connections,
        bytes: budget.bytes,
        hosts: budget.hosts,
        durationMs: Math.round(performance.now() - started),
        refused: proxy.refused.length + proxy.refusedUncounted,
      },
    };
  } finally {
    clearTimeout(stop);
    request.signal?.removeEventListener("abort", aborted);
    await context?.close().catch(() => undefined);
    await proxy.close();
  }
}

/** Every request of the scan's pages: media and fonts skipped, the budget spent, same-origin https signed. */
async function routeRequest(
  route: Route,
  budget: RenderBudget,
  proxy: GuardProxy,
  scope: ScanScope,
  signer: RequestSigner | null,
): Promise<void> {
  const request = route.request();
  const url = new URL(request.url());
  if (url.protocol !== "http:" && url.protocol !== "https:") return route.continue();
  if (SKIPPED_RESOURCES.has(request.resourceType())) return route.abort("blockedbyclient");
  const refusal = budget.takeRequest(url.hostname);
  if (refusal !== null) {
    proxy.refuse(`${request.method()} ${url.href}`, refusal);
    return route.abort("blockedbyclient");
  }
  if (signer === null || !scope.signs(url.href)) return route.continue();
  const headers = await request.allHeaders();
  const signed = await signer({ method: request.method(), url: url.href, headers });
  return route.continue({ headers: signed });
}
