import { performance } from "node:perf_hooks";
import type { BlockingSignal } from "../../../../../src/schemas/report.ts";
import { type BrowserComparison, ScanFetchError } from "../scan-fetch-error.ts";
import { type Answer, describeProtectedAnswer, recognizeProtection } from "./bot-protection.ts";
import { pause, retryAfterMs } from "./retry-after.ts";

/** A current desktop Chrome: what a person's browser sends, for the one comparison request that tells blocking apart. */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

export interface WatchedRequest {
  method: "GET" | "HEAD" | "POST";
  href: string;
  headers: Readonly<Record<string, string>>;
  body: string | undefined;
  /** Sent without a Web Bot Auth signature: the browser comparison, which stands for a person's browser. */
  unsigned?: true;
}

/** What the site answered, and where (after no redirect: the watch judges each hop). */
export type WatchedAnswer = Answer & { url: string };

/**
 * Sends one request the watch needs (a browser comparison, a re-check of an earlier answer) outside the scan's cache but
 * within its request budget and time; null when the budget or the time is spent.
 */
export type ExtraSender = (request: WatchedRequest) => Promise<WatchedAnswer | null>;

export interface BlockWatchOptions {
  /** The scanner's own User-Agent: only its requests are judged (a probe posing as another client judges its own). */
  userAgent: string;
  /** The origin being checked: another host's refusals are that host's answers, not the site's bot protection. */
  origin: string | null;
  scanBudgetMs: number;
  /** The scan's time budget as a signal, so a Retry-After pause never outlives it. */
  deadline: AbortSignal;
}

/** Browser comparisons a scan may send: enough to tell a User-Agent rule apart, few enough to stay polite. */
const MAX_COMPARISONS = 3;
/** Re-checks of an earlier answer, to see whether blocking grew during the scan. */
const MAX_RECHECKS = 2;
/** A request is retried at most this often after a 429 with Retry-After. */
const MAX_RETRIES = 2;
/** A retry after Retry-After must still leave this much of the time budget for its own answer. */
const RETRY_MARGIN_MS = 1_000;

const isRefusal = (answer: Answer): boolean =>
  answer.status === 403 || answer.status === 429 || recognizeProtection(answer)?.certain === true;

/** Marks of a challenge or block page on an answer that is not a refusal: blocking only if a browser gets another. */
const isSuspect = (answer: Answer): boolean => !isRefusal(answer) && recognizeProtection(answer) !== null;

function asComparison(browser: WatchedAnswer | null | undefined): BrowserComparison | null {
  if (browser === undefined) return null;
  const response =
    browser === null
      ? null
      : { status: browser.status, headers: browser.headers, url: browser.url, excerpt: browser.text.slice(0, 200) };
  return { userAgent: BROWSER_USER_AGENT, response };
}

function describeComparison(browser: WatchedAnswer | null | undefined): string {
  if (browser === undefined) return `no browser comparison was sent (the scan sends at most ${MAX_COMPARISONS})`;
  const asked = "the same request with a browser's User-Agent and no signature";
  return browser === null
    ? `${asked} got no answer within the budget`
    : `${asked} got ${describeProtectedAnswer(browser)}`;
}

/**
 * Tells the site's bot protection apart from the site's own answers (DESIGN §8, "blocked is not missing"): a challenge
 * or block page, a 403 a browser's User-Agent does not get, a 429 without Retry-After (or one past the time budget),
 * and blocking that begins during the scan. Each throws a `blocked` ScanFetchError with what was sent, what came back
 * and what a browser got; a 429 with Retry-After within the budget is waited out (every request pauses) and retried.
 * After a 429 the scan gives up or growing blocking is seen, it sends nothing more.
 */
export class BlockWatch {
  /** Each blocking seen, once per kind and URL, for the report's summary. */
  readonly signals: BlockingSignal[] = [];
  private readonly options: BlockWatchOptions;
  private readonly endsAt: number;
  private stopped: ScanFetchError | null = null;
  private pausedUntil = 0;
  private comparisons = 0;
  private rechecks = 0;
  /** A comparison that proved a User-Agent rule, to name when no comparison is left for a later 403. */
  private proof: string | null = null;
  /** GETs of the checked origin that answered 2xx to the scanner, in order: a later refusal of one is growth. */
  private readonly answered: string[] = [];
  private readonly retries = new Map<string, number>();
  /** Refusals being judged, one after another; no new request goes out meanwhile. */
  private judging: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(options: BlockWatchOptions) {
    this.options = options;
    this.endsAt = performance.now() + options.scanBudgetMs;
  }

  /** Waits out a Retry-After pause and any refusal being judged; throws once the scan has stopped asking. */
  async beforeSend(href: string): Promise<void> {
    this.throwIfStopped(href);
    while (!this.ready()) {
      const wait = this.pausedUntil - performance.now();
      await (wait > 0 ? pause(wait, this.options.deadline) : this.judging.then(() => undefined));
      this.throwIfStopped(href);
    }
  }

  /** A request slot once nothing holds new requests back; rejects once the scan has stopped asking. */
  async admit(href: string, slots: { acquire(): Promise<void>; release(): void }): Promise<void> {
    for (;;) {
      await this.beforeSend(href);
      await slots.acquire();
      if (this.ready()) return;
      slots.release();
    }
  }

  /** Nothing holds new requests back: no pause, no refusal being judged, no stop. */
  private ready(): boolean {
    return this.stopped === null && this.pending === 0 && this.pausedUntil <= performance.now();
  }

  /** A 429 from the checked site: how long to wait before the retry, or a `blocked` error that stops the scan. */
  onRateLimited(error: ScanFetchError, request: WatchedRequest): number {
    // Any 429 from the checked site, whatever User-Agent the request posed as, asks the whole scan to slow down.
    if (!this.onOrigin(request)) throw error;
    const headers = error.response?.headers ?? {};
    const value = headers["retry-after"];
    const delay = value === undefined ? null : retryAfterMs(value, Date.now());
    const tries = this.retries.get(request.href) ?? 0;
    const left = this.endsAt - performance.now();
    if (delay !== null && tries < MAX_RETRIES && delay < left - RETRY_MARGIN_MS) {
      this.retries.set(request.href, tries + 1);
      this.pausedUntil = Math.max(this.pausedUntil, performance.now() + delay);
      return delay;
    }
    const asked = `${this.sent(request)} got 429 Too Many Requests`;
    const why =
      value === undefined
        ? `${asked} without Retry-After`
        : delay === null
          ? `${asked} with a Retry-After the scan cannot read (${value})`
          : tries >= MAX_RETRIES
            ? `${asked} again after waiting ${tries} time(s) as Retry-After asked`
            : `${asked} asking to wait ${Math.ceil(delay / 1000)} s (Retry-After: ${value}), past what is left of the scan's ${this.options.scanBudgetMs / 1000} s budget`;
    const blocked = this.block(
      "rate-limit",
      request,
      `${why}, so the scan stopped asking (no browser comparison: after a 429 the scan sends nothing more)`,
      { status: 429, headers },
      null,
    );
    this.stopped = blocked;
    throw blocked;
  }

  /** Judges one answer to the scanner's own request: returns it when it is the site's own, throws `blocked` if not. */
  async judge<T extends WatchedAnswer>(request: WatchedRequest, answer: T, send: ExtraSender): Promise<T> {
    if (!this.judges(request)) return answer;
    if (!isRefusal(answer) && !isSuspect(answer)) {
      if (request.method === "GET" && answer.status >= 200 && answer.status < 300) this.answered.push(request.href);
      return answer;
    }
    // One refusal at a time, with every new request held back until it is judged: a site that blocks more as the
    // scan goes on must not see the scan go on while it finds out.
    this.pending += 1;
    const turn = this.judging.then(() => this.judgeRefusal(request, answer, send));
    this.judging = turn.catch(() => undefined);
    try {
      return await turn;
    } finally {
      this.pending -= 1;
    }
  }

  private async judgeRefusal<T extends WatchedAnswer>(
    request: WatchedRequest,
    answer: T,
    send: ExtraSender,
  ): Promise<T> {
    if (isSuspect(answer)) return this.judgeSuspect(request, answer, send);
    if (this.stopped !== null) throw this.notJudged(request.href, answer);
    const page = recognizeProtection(answer);
    const got = `${this.sent(request)} got ${describeProtectedAnswer(answer)}`;
    const browser = await this.compare(request, send);
    const comparison = asComparison(browser);
    const browserGot = describeComparison(browser);
    const response = { status: answer.status, headers: answer.headers };
    if (browser !== undefined && browser !== null && !isRefusal(browser)) {
      this.proof ??= `${new URL(request.href).pathname} (${describeProtectedAnswer(answer)} to us, ${browser.status} to a browser)`;
      const kind = page === null ? "user-agent" : "challenge";
      throw this.block(kind, request, `${got}; ${browserGot}`, response, comparison);
    }
    const grown = await this.growth(request, send);
    if (grown !== null) {
      this.stopped = this.block("growing", request, `${got}; ${browserGot}; ${grown}`, response, comparison);
      throw this.stopped;
    }
    if (page !== null) throw this.block("challenge", request, `${got}; ${browserGot}`, response, comparison);
    if (browser === undefined && this.proof !== null)
      throw this.block("user-agent", request, `${got}, as ${this.proof} did; ${browserGot}`, response, null);
    return answer;
  }

  /**
   * An answer with the marks of a challenge or block page but not its status (a 200 that quotes "Sorry, you have been
   * blocked", a page with a vendor's sensor script): the site's own answer unless a browser gets a different one.
   */
  private async judgeSuspect<T extends WatchedAnswer>(
    request: WatchedRequest,
    answer: T,
    send: ExtraSender,
  ): Promise<T> {
    const browser = this.stopped === null ? await this.compare(request, send) : undefined;
    const same = browser === undefined || browser === null || isRefusal(browser) || isSuspect(browser);
    if (same) {
      if (request.method === "GET" && answer.status >= 200 && answer.status < 300) this.answered.push(request.href);
      return answer;
    }
    const detail = `${this.sent(request)} got ${describeProtectedAnswer(answer)}; ${describeComparison(browser)}`;
    throw this.block(
      "challenge",
      request,
      detail,
      { status: answer.status, headers: answer.headers },
      asComparison(browser),
    );
  }

  /** Only the scanner's own requests to the checked origin are judged. */
  private judges(request: WatchedRequest): boolean {
    return request.headers["user-agent"] === this.options.userAgent && this.onOrigin(request);
  }

  private onOrigin(request: WatchedRequest): boolean {
    return this.options.origin === null || new URL(request.href).origin === this.options.origin;
  }

  /**
   * The same request as a person's browser sends it: a browser's User-Agent and no signature, so a rule against our
   * User-Agent or against signed requests shows as a difference. undefined: no comparison left; null: sent, no answer.
   */
  private async compare(request: WatchedRequest, send: ExtraSender): Promise<WatchedAnswer | null | undefined> {
    if (this.comparisons >= MAX_COMPARISONS || this.stopped !== null) return undefined;
    this.comparisons += 1;
    return send({ ...request, headers: { ...request.headers, "user-agent": BROWSER_USER_AGENT }, unsigned: true });
  }

  /** Whether the refusal began during the scan: this URL, or the first that answered, answered 2xx before. */
  private async growth(request: WatchedRequest, send: ExtraSender): Promise<string | null> {
    const path = (href: string): string => new URL(href).pathname;
    if (this.answered.includes(request.href)) return `${path(request.href)} answered 2xx earlier in this scan`;
    const first = this.answered[0];
    if (first === undefined || this.rechecks >= MAX_RECHECKS || this.stopped !== null) return null;
    this.rechecks += 1;
    const again = await send({ method: "GET", href: first, headers: request.headers, body: undefined });
    if (again === null || !isRefusal(again)) return null;
    return `${path(first)}, which answered 2xx at the start of the scan, now gets ${describeProtectedAnswer(again)}`;
  }

  private block(
    kind: BlockingSignal["kind"],
    request: WatchedRequest,
    detail: string,
    response: { status: number; headers: Readonly<Record<string, string>> },
    comparison: BrowserComparison | null,
  ): ScanFetchError {
    if (!this.signals.some((signal) => signal.kind === kind && signal.url === request.href))
      this.signals.push({ kind, url: request.href, detail });
    const message = `blocked by the site's bot protection, so this was not judged (which says nothing about whether it exists): ${detail}`;
    return new ScanFetchError("blocked", message, request.href, response, null, comparison);
  }

  private sent(request: WatchedRequest): string {
    const ours = request.headers["user-agent"] === this.options.userAgent;
    return `${request.method} ${new URL(request.href).pathname} with ${ours ? "our" : "an AI agent's"} User-Agent`;
  }

  private throwIfStopped(href: string): void {
    if (this.stopped !== null)
      throw new ScanFetchError("blocked", `not sent (${href}): ${this.stopped.message}`, href, this.stopped.response);
  }

  /** A refusal that came back after the scan stopped asking: it is not judged on its own. */
  private notJudged(href: string, answer: Answer): ScanFetchError {
    const stop = this.stopped?.message ?? "";
    return new ScanFetchError("blocked", `answered ${answer.status} after the scan stopped asking: ${stop}`, href, {
      status: answer.status,
      headers: answer.headers,
    });
  }
}
