import type { Agent } from "undici";
import { signedHeaders } from "../../../platform/signing/request-signature.ts";
import { asPartOfFirstSample, RequestBudget, type Spending } from "../budget/request-budget.ts";
import { Slots } from "../budget/slots.ts";
import { defaultLookup, LOOKUPS_PER_SCAN, limitLookups } from "../dns/resolver.ts";
import type { CheckerSettings } from "../settings.ts";
import {
  type HostLookup,
  type ResolvedAddress,
  TargetNotAllowedError,
  type VettedDestination,
  vetDestination,
} from "./address-guard.ts";
import { BlockWatch, type WatchedAnswer, type WatchedRequest } from "./blocking/block-watch.ts";
import { type ExchangeOptions, exchange, type Hop } from "./exchange.ts";
import { createPinnedAgent } from "./pinned-agent.ts";
import { type ResponseFault, redirectLimit, redirectLoop } from "./response-fault.ts";
import { ScanFetchError, timeBudgetError } from "./scan-fetch-error.ts";
import type { FetchOutcome, ScanMethod, ScanRequest, ScanResponse } from "./scan-response.ts";
import { variesOnAccept } from "./scan-response.ts";
import { ScanScope } from "./scope/scan-scope.ts";

export type { FetchOutcome, ScanMethod, ScanRequest, ScanResponse } from "./scan-response.ts";

export interface ScanFetcherOptions {
  settings: CheckerSettings;
  lookup?: HostLookup;
  /**
   * The scan's deadline, when the caller started it (run-check.ts starts it before the target's own lookup and joins
   * the caller's stop to it); without one, the scan's time budget starts here.
   */
  deadline?: AbortSignal;
  /** The origin being checked, whose bot protection the scan watches for (see blocking/block-watch.ts). */
  origin?: string;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The only way a scan touches the network: vetted and pinned destinations, hand-followed redirects, per-request and
 * per-scan time limits, a decompressed size cap, a request budget, a watch on the site's bot protection (Retry-After
 * honoured, a stop on a 429 without it), and a per-scan cache so checks share one fetch of each document.
 */
export class ScanFetcher {
  private readonly settings: CheckerSettings;
  /** The scan's name lookups: c-ares, at most LOOKUPS_PER_SCAN in flight; the renderer's share the cap. */
  readonly lookup: HostLookup;
  private readonly pins = new Map<string, readonly ResolvedAddress[]>();
  private readonly vetted = new Map<string, Promise<VettedDestination>>();
  private readonly cache = new Map<string, Promise<ScanResponse>>();
  private readonly firstGet = new Map<string, Promise<ScanResponse>>();
  private readonly agent: Agent;
  /** Aborts when the scan's time budget runs out or its caller stops it. */
  readonly deadline: AbortSignal;
  private readonly exchangeOptions: ExchangeOptions;
  private readonly slots: Slots;
  private readonly scope: ScanScope;
  /** How the site's bot protection answered the scan (`watch.signals`), see blocking/block-watch.ts. */
  readonly watch: BlockWatch;
  /** The request budget and its plan (`planSamples`, `releaseSample`), see budget/request-budget.ts. */
  readonly budget: RequestBudget;

  constructor(options: ScanFetcherOptions) {
    this.settings = options.settings;
    this.scope = new ScanScope(options.origin ?? null, options.settings);
    this.lookup = limitLookups(options.lookup ?? defaultLookup, LOOKUPS_PER_SCAN);
    this.agent = createPinnedAgent(this.pins, this.settings.limits);
    this.slots = new Slots(this.settings.limits.maxConcurrency);
    this.budget = new RequestBudget(this.settings.limits);
    this.deadline = options.deadline ?? AbortSignal.timeout(this.settings.limits.scanBudgetMs);
    this.exchangeOptions = {
      agent: this.agent,
      deadline: this.deadline,
      limits: this.settings.limits,
      deadlineError: (href) => timeBudgetError(this.settings, href),
    };
    this.watch = new BlockWatch({
      userAgent: this.settings.userAgent,
      origin: options.origin ?? null,
      scanBudgetMs: this.settings.limits.scanBudgetMs,
      deadline: this.deadline,
    });
  }

  /** Network requests sent so far, redirect hops included. */
  get requestCount(): number {
    return this.budget.sent;
  }

  fetch(request: ScanRequest): Promise<FetchOutcome> {
    const method = request.method ?? "GET";
    const url = new URL(request.url).href;
    // A probe (anything but a plain read of a document) is the scan acting on a site: only the one it was asked to check.
    const probe = request.probe === true || method === "POST";
    if (probe && !this.scope.onOrigin(url)) return Promise.reject(this.scope.offOrigin(method, url));
    const headers = this.requestHeaders(request.headers);
    // A POST is cached too, keyed by its body and headers: a scan never needs to send the same probe twice.
    const key = JSON.stringify([method, url, Object.entries(headers).sort(), request.body ?? null]);
    const spending: Spending = {
      sample: request.sample === true,
      firstSample: request.firstSample,
      afterEssentials: request.afterEssentials,
      onSent: request.onSent,
    };
    const cached = this.cache.get(key);
    if (cached !== undefined) return cached.then((response) => ({ response, reused: true }));
    const plainGet =
      method === "GET" &&
      request.exact !== true &&
      request.headers?.["if-none-match"] === undefined &&
      request.headers?.["user-agent"] === undefined;
    const earlier = plainGet ? this.firstGet.get(url) : undefined;
    if (earlier !== undefined) {
      const outcome = this.reuseOrSend(earlier, method, url, headers, spending, probe);
      const cached = outcome.then(({ response }) => response);
      // Only later callers observe the cached copy; a failure is reported to this caller through `outcome`.
      cached.catch(() => undefined);
      this.cache.set(key, cached);
      return outcome;
    }
    const pending = this.send(method, url, headers, request.body, spending, probe);
    this.cache.set(key, pending);
    if (plainGet && !this.firstGet.has(url)) this.firstGet.set(url, pending);
    // A request the budget refused was never sent: forgetting it lets a caller the budget still serves send it.
    pending.catch((error: unknown) => {
      if (!(error instanceof ScanFetchError) || error.kind !== "request-budget") return;
      if (this.cache.get(key) === pending) this.cache.delete(key);
      if (this.firstGet.get(url) === pending) this.firstGet.delete(url);
    });
    return pending.then((response) => ({ response, reused: false }));
  }

  /**
   * Another Accept for a URL already fetched: a response that does not vary on Accept is the same representation
   * (RFC 9111 §4.1), so it is reused instead of asking the site again.
   */
  private async reuseOrSend(
    earlier: Promise<ScanResponse>,
    method: ScanMethod,
    url: string,
    headers: Record<string, string>,
    spending: Spending,
    probe: boolean,
  ): Promise<FetchOutcome> {
    const previous = await earlier.catch(() => null);
    if (previous !== null && !variesOnAccept(previous)) return { response: previous, reused: true };
    return { response: await this.send(method, url, headers, undefined, spending, probe), reused: false };
  }

  /** A GET of `url` this scan already sent (with any Accept), so link checks can reuse it instead of asking again. */
  peekGet(url: string | URL): Promise<ScanResponse> | undefined {
    return this.firstGet.get(new URL(url).href);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  private requestHeaders(extra: Readonly<Record<string, string>> | undefined): Record<string, string> {
    return { accept: "*/*", "user-agent": this.settings.userAgent, ...extra };
  }

  private async send(
    method: ScanMethod,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    spending: Spending,
    probe: boolean,
  ): Promise<ScanResponse> {
    const redirects: string[] = [];
    let current = new URL(url);
    let currentMethod = method;
    let currentBody = body;
    let hopSpending = spending;
    for (;;) {
      const hop = await this.hop(currentMethod, current, headers, currentBody, hopSpending);
      // A check's first sample is answered only where its redirects end: those hops are part of it, not more samples.
      if (hopSpending.granted === "first-sample") hopSpending = asPartOfFirstSample(spending);
      const done = (fault: ResponseFault | null = hop.fault): ScanResponse => ({
        ...hop,
        fault,
        method,
        requestUrl: url,
        redirects,
        requestHeaders: headers,
      });
      const location = hop.headers.location;
      if (!REDIRECT_STATUSES.has(hop.status) || location === undefined) return done();
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return done();
      }
      // A probe that the site sends elsewhere ends here: its answer is the redirect itself (see crawler.md).
      if (probe && !this.scope.onOrigin(next.href)) return done();
      if (next.href === url || redirects.includes(next.href)) return done(redirectLoop(current.href, next.href));
      if (redirects.length >= this.settings.limits.maxRedirects) return done(redirectLimit(url, redirects.length));
      const refusal = await this.vet(next).then(
        () => null,
        (error: unknown) => (error instanceof ScanFetchError ? error : null),
      );
      if (refusal !== null && refusal.kind !== "target-not-allowed") throw refusal;
      if (refusal !== null) {
        if (refusal.refusal === "port") throw refusal;
        const why = refusal.message.replace(/^refused \S+: /, "");
        return done({
          kind: "redirect-refused",
          message: `${current.href} redirects to ${next.href}, which no public client may reach: ${why}`,
        });
      }
      redirects.push(next.href);
      if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && currentMethod === "POST")) {
        currentMethod = "GET";
        currentBody = undefined;
      }
      current = next;
    }
  }

  private async hop(
    method: ScanMethod,
    url: URL,
    headers: Record<string, string>,
    body: string | undefined,
    spending: Spending,
  ): Promise<Hop> {
    const destination = await this.vet(url);
    if (!destination.literal) this.pins.set(destination.hostname.toLowerCase(), destination.addresses);
    const request = { method, href: url.href, headers, body };
    let attempt = spending;
    for (;;) {
      // A 429 is judged before the request's slot is handed on, so nothing slips out after the scan stops asking.
      const answer = await this.sendCounted(request, attempt, (error) => this.watch.onRateLimited(error, request));
      if (attempt.granted === "first-sample") attempt = asPartOfFirstSample(spending);
      if (typeof answer === "number") continue;
      return await this.watch.judge(request, answer, (next) => this.sendExtra(next, { ...spending, sample: false }));
    }
  }

  /** One request within the budget, the concurrency limit and the time budget; `onTooMany` judges a 429. */
  private async sendCounted(
    request: WatchedRequest,
    spending: Spending,
    onTooMany?: (error: ScanFetchError) => number,
  ): Promise<Hop | number> {
    const { href } = request;
    if (onTooMany === undefined) await this.slots.acquire();
    else
      await this.watch.admit(href, this.slots).catch((error: unknown) => {
        throw error instanceof ScanFetchError ? error : timeBudgetError(this.settings, href);
      });
    try {
      if (this.deadline.aborted) throw timeBudgetError(this.settings, href);
      const taken = this.budget.take(spending);
      if ("refused" in taken) throw new ScanFetchError("request-budget", `not sent (${href}): ${taken.refused}`, href);
      spending.granted = taken.grant;
      spending.onSent?.();
      // Each hop is signed for its own authority and path (Web Bot Auth); the cache and the evidence keep the unsigned headers.
      const signer = request.unsigned !== true && this.scope.signs(href) ? this.settings.signer : null;
      return await exchange({ ...request, headers: await signedHeaders(signer, request) }, this.exchangeOptions);
    } catch (error) {
      if (onTooMany === undefined || !(error instanceof ScanFetchError) || error.kind !== "rate-limited") throw error;
      return onTooMany(error);
    } finally {
      this.slots.release();
    }
  }

  /** A request the block watch asks for (a browser comparison, a re-check): a 429 is an answer here, not a stop. */
  private sendExtra(request: WatchedRequest, spending: Spending): Promise<WatchedAnswer | null> {
    return this.sendCounted(request, spending).then(
      (hop) => (typeof hop === "number" ? null : hop),
      (error: unknown) => {
        if (!(error instanceof ScanFetchError)) throw error;
        const answered = error.kind === "rate-limited" ? error.response : null;
        return answered === null ? null : { ...answered, url: request.href, text: "" };
      },
    );
  }

  private vet(url: URL): Promise<VettedDestination> {
    const key = `${url.protocol}//${url.host}`;
    let pending = this.vetted.get(key);
    if (pending === undefined) {
      pending = vetDestination(url, this.settings, this.lookup, this.deadline);
      this.vetted.set(key, pending);
    }
    return pending.catch((error: unknown) => {
      if (this.deadline.aborted) throw timeBudgetError(this.settings, url.href);
      const message = error instanceof Error ? error.message : String(error);
      const reason = error instanceof TargetNotAllowedError ? error.reason : null;
      throw new ScanFetchError("target-not-allowed", `refused ${url.href}: ${message}`, url.href, null, reason);
    });
  }
}
