import { formatBytes } from "../../../src/lib/format-bytes.ts";
import { boundedMessage, inertBlock, inertLine, truncate } from "../../../src/lib/site-text.ts";
import type { Evidence } from "../../../src/schemas/report.ts";
import type { SampleGate } from "./budget/sample-gate.ts";
import type { ScanFetcher, ScanRequest, ScanResponse } from "./fetch/fetcher.ts";
import { ScanFetchError } from "./fetch/scan-fetch-error.ts";
import { mediaTypeOf } from "./parse/media-type.ts";

const REQUEST_HEADERS_SHOWN = ["accept", "if-none-match", "content-type", "mcp-protocol-version", "mcp-session-id"];
const RESPONSE_HEADERS_SHOWN = [
  "content-type",
  "content-length",
  "content-encoding",
  "location",
  "link",
  "vary",
  "cache-control",
  "etag",
  "last-modified",
  "access-control-allow-origin",
  "access-control-allow-methods",
  "access-control-expose-headers",
  "strict-transport-security",
  "content-security-policy",
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "x-robots-tag",
  "ratelimit",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "retry-after",
  "www-authenticate",
  "allow",
  "mcp-session-id",
  "x-markdown-tokens",
  "content-signal",
];
const EXCERPT_LIMIT = 500;

function pick(headers: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) picked[name] = truncate(inertLine(value), 299);
  }
  return picked;
}

/** The start of a body as the evidence shows it: inert (its line breaks kept), at most EXCERPT_LIMIT UTF-16 units. */
function excerptOf(text: string): string {
  let excerpt = inertBlock(text.slice(0, EXCERPT_LIMIT)).slice(0, EXCERPT_LIMIT);
  if (/[\uD800-\uDBFF]$/.test(excerpt)) excerpt = excerpt.slice(0, -1);
  return excerpt;
}

function excerpt(response: ScanResponse): string {
  const essence = mediaTypeOf(response);
  const binary = /^(image|audio|video|font)\//.test(essence) || /(gzip|zip|octet-stream|tar)/.test(essence);
  if (binary) return `[${formatBytes(response.body.length)} of ${inertLine(essence)}]`;
  return excerptOf(response.text);
}

export function describeResponse(response: ScanResponse): string {
  const essence = mediaTypeOf(response);
  const redirects = response.redirects.length === 0 ? "" : ` after ${response.redirects.length} redirect(s)`;
  const size = response.method === "HEAD" ? "" : `, ${formatBytes(response.body.length)}`;
  const fault = response.fault === null ? "" : `: ${response.fault.message}`;
  return `${response.status}${essence === "" ? ", no Content-Type" : ` ${essence}`}${size}${redirects}${fault}`;
}

/**
 * The evidence of one check: every request it relied on (sent or reused from the scan's cache), the response, and a
 * one-line finding the check can replace with its own conclusion.
 */
export class EvidenceTrail {
  readonly entries: Evidence[] = [];
  private readonly sources: Array<ScanResponse | null> = [];
  private readonly fetcher: ScanFetcher;
  /** The scanner's own User-Agent, which probes that pose as a bot append to theirs. */
  readonly userAgent: string;

  /** The origin being checked. */
  private readonly origin: string;
  /** Network requests this trail's check sent itself, redirect hops included. */
  private sent = 0;
  /** Whether this check has sent a sample yet. */
  sampled = false;
  /** The first request of this check that the site's bot protection refused, if any. */
  blocked: ScanFetchError | null = null;

  /** Releases the samples the essential reserve holds back once the scan's essential fetches are done. */
  private readonly gate: SampleGate | null;

  constructor(fetcher: ScanFetcher, userAgent: string, origin: string, gate: SampleGate | null = null) {
    this.fetcher = fetcher;
    this.userAgent = userAgent;
    this.origin = origin;
    this.gate = gate;
  }

  get(url: string | URL, headers?: Readonly<Record<string, string>>): Promise<ScanResponse> {
    return this.request({ method: "GET", url, ...(headers === undefined ? {} : { headers }) });
  }

  async request(request: ScanRequest): Promise<ScanResponse> {
    // The sample gate waits for checks with essential requests in flight (budget/sample-gate.ts).
    const essential = request.sample !== true;
    if (essential) this.gate?.busy(this, 1);
    try {
      return await this.send(request);
    } finally {
      if (essential) this.gate?.busy(this, -1);
    }
  }

  /**
   * A sample the essential reserve held back, while the budget still has room once the essential fetches are done: it
   * waits for them (budget/sample-gate.ts) and goes then, instead of being skipped with requests left unused.
   */
  private heldBack(request: ScanRequest, error: ScanFetchError): boolean {
    return (
      error.kind === "request-budget" &&
      request.sample === true &&
      request.afterEssentials !== true &&
      this.gate?.admits(this) === true &&
      this.fetcher.budget.roomAfterEssentials
    );
  }

  private async send(request: ScanRequest): Promise<ScanResponse> {
    const method = request.method ?? "GET";
    // A check's first sample draws on the one request the budget plan keeps for it (budget/request-budget.ts).
    const firstSample = (): boolean => {
      if (this.sampled) return false;
      this.sampled = true;
      return true;
    };
    const shownHeaders = pick(request.headers ?? {}, REQUEST_HEADERS_SHOWN);
    const agent = request.headers?.["user-agent"];
    if (agent !== undefined && agent !== this.userAgent) shownHeaders["user-agent"] = agent;
    const shownRequest = { method, url: new URL(request.url).href, headers: shownHeaders };
    try {
      const { response, reused } = await this.fetcher.fetch({
        ...request,
        firstSample,
        onSent: () => {
          if (request.sample === true) this.sampled = true;
          this.sent += 1;
        },
      });
      this.push(response, {
        request: shownRequest,
        response: {
          status: response.status,
          url: response.url,
          redirects: [...response.redirects],
          headers: pick(response.headers, RESPONSE_HEADERS_SHOWN),
          excerpt: excerpt(response),
        },
        error: null,
        reused,
        finding: describeResponse(response),
      });
      return response;
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
      if (this.gate !== null && this.heldBack(request, error)) {
        await this.gate.wait(this);
        return this.send({ ...request, afterEssentials: true });
      }
      const failure = error;
      if (failure.kind === "blocked") this.blocked ??= failure;
      const answered = failure.response;
      this.push(null, {
        request: shownRequest,
        response:
          answered === null
            ? null
            : {
                status: answered.status,
                url: failure.url,
                redirects: [],
                headers: pick(answered.headers, RESPONSE_HEADERS_SHOWN),
                excerpt: "",
              },
        error: failure.message,
        reused: false,
        finding:
          failure.kind === "blocked" ? "blocked by the site's bot protection" : `no usable response (${failure.kind})`,
      });
      const browser = failure.comparison;
      if (browser !== null) {
        const { response } = browser;
        this.push(null, {
          request: { ...shownRequest, headers: { ...shownRequest.headers, "user-agent": browser.userAgent } },
          response:
            response === null
              ? null
              : { ...response, redirects: [], headers: pick(response.headers, RESPONSE_HEADERS_SHOWN) },
          error: response === null ? "no answer within the scan's budget" : null,
          reused: false,
          finding: "the same request with a browser's User-Agent, for comparison",
        });
      }
      throw failure;
    }
  }

  /**
   * Whether a URL answers. On the checked origin one GET serves every check that needs the URL (a scan is capped in
   * requests, and the fetcher reuses a GET whatever the Accept when the response does not vary on it). Elsewhere it is
   * HEAD first, then GET when HEAD is answered with something other than success or a definite 404/410 (some servers
   * mishandle HEAD).
   */
  async resolve(url: string | URL, options: { accept?: string; sample?: boolean } = {}): Promise<ScanResponse> {
    const target = new URL(url);
    const sample = options.sample === true ? { sample: true } : {};
    const earlier = this.fetcher.peekGet(target);
    if (earlier !== undefined) {
      const accept = await earlier.then(
        (response) => response.requestHeaders.accept ?? "*/*",
        () => "*/*",
      );
      return this.request({ url: target, headers: { accept }, ...sample });
    }
    if (target.origin === this.origin)
      return this.request({ url: target, headers: { accept: options.accept ?? "*/*" }, ...sample });
    const head = await this.request({ method: "HEAD", url: target, ...sample });
    if ((head.status >= 200 && head.status < 300) || head.status === 404 || head.status === 410) return head;
    return this.request({ url: target, ...sample });
  }

  /** The scan already fetched this URL with GET, so resolving it costs nothing. */
  hasFetched(url: string | URL): boolean {
    return this.fetcher.peekGet(url) !== undefined;
  }

  /** Requests this check sent, and responses it took from the scan's cache instead. */
  get spending(): { requests: number; reused: number } {
    return { requests: this.sent, reused: this.entries.filter((entry) => entry.reused).length };
  }

  /** Records a page the scan rendered in a browser (render/), which no response of the fetcher stands for. */
  recordRendered(entry: Evidence): void {
    this.push(null, entry);
  }

  /** Replaces the finding of the latest entry that recorded `response`. */
  note(response: ScanResponse, finding: string): void {
    const index = this.sources.lastIndexOf(response);
    const entry = index === -1 ? undefined : this.entries[index];
    if (entry !== undefined) entry.finding = boundedMessage(finding);
  }

  /** Every entry is stored inert and bounded: what the site answered is quoted, never replayed (src/lib/site-text.ts). */
  private push(source: ScanResponse | null, entry: Evidence): void {
    this.sources.push(source);
    const { response } = entry;
    this.entries.push({
      ...entry,
      response: response === null ? null : { ...response, excerpt: excerptOf(response.excerpt) },
      error: entry.error === null ? null : boundedMessage(entry.error),
      finding: boundedMessage(entry.finding),
    });
  }
}
