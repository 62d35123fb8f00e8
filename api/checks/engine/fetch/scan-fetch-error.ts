import type { TargetRefusalReason } from "./address-guard.ts";
import { describeNetworkFailure, describeTlsFailure } from "./connection-failure.ts";

/**
 * Why a request of a scan did not produce a response at all. Some kinds are the site's doing (it hung, reset the
 * connection, has a broken certificate, or points at a host the scan may not reach); the others are the scanner's own
 * limits. `isSiteFault` tells them apart, which decides `fail` from `error` (DESIGN §8).
 */
export type ScanFetchErrorKind =
  | "target-not-allowed"
  | "timeout"
  | "scan-time-budget"
  | "request-budget"
  | "rate-limited"
  | "blocked"
  | "off-origin"
  | "tls"
  | "network";

export interface ScanFetchErrorResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
}

/** For `blocked`: the same request sent with a browser's User-Agent, and what came back (null: no answer). */
export interface BrowserComparison {
  userAgent: string;
  response: (ScanFetchErrorResponse & { url: string; excerpt: string }) | null;
}

export class ScanFetchError extends Error {
  override name = "ScanFetchError";
  readonly kind: ScanFetchErrorKind;
  readonly url: string;
  /** The response that ended the scan's politeness (a 429), kept for the evidence trail. */
  readonly response: ScanFetchErrorResponse | null;
  /** For `target-not-allowed`: why the address guard refused the URL. */
  readonly refusal: TargetRefusalReason | null;
  /** For `blocked`: what a browser got for the same request, when the scan asked. */
  readonly comparison: BrowserComparison | null;

  constructor(
    kind: ScanFetchErrorKind,
    message: string,
    url: string,
    response: ScanFetchErrorResponse | null = null,
    refusal: TargetRefusalReason | null = null,
    comparison: BrowserComparison | null = null,
  ) {
    super(message);
    this.kind = kind;
    this.url = url;
    this.response = response;
    this.refusal = refusal;
    this.comparison = comparison;
  }
}

/**
 * The site is to blame: it did not answer in time, broke the connection or TLS, or sent the scan to an address no
 * public client can use. The scanner's budgets, a 429 from another host, the site's bot protection (`blocked`) and
 * the scanner's own port policy are not the site's fault, so they leave the check without a verdict.
 */
export function isSiteFault(error: ScanFetchError): boolean {
  switch (error.kind) {
    case "timeout":
    case "tls":
    case "network":
      return true;
    case "target-not-allowed":
      return error.refusal !== "port";
    default:
      return false;
  }
}

const TLS_ERROR_CODES = new Set([
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
]);

/** Turns what undici throws (`TypeError: fetch failed` with a `cause`) into a precise scan error. */
export function toScanFetchError(error: unknown, url: string): ScanFetchError {
  if (error instanceof ScanFetchError) return error;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof ScanFetchError) return cause;
  const code = cause instanceof Error && "code" in cause ? String(cause.code) : "";
  const message = cause instanceof Error ? cause.message : String(cause);
  if (TLS_ERROR_CODES.has(code))
    return new ScanFetchError("tls", describeTlsFailure(code, url) ?? `TLS failed for ${url} (${code})`, url);
  if (code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new ScanFetchError("timeout", `${url} timed out (${code})`, url);
  }
  const detail = code === "" ? message : `${code}: ${message}`;
  return new ScanFetchError("network", describeNetworkFailure(code, url) ?? `could not fetch ${url}: ${detail}`, url);
}

/**
 * For `.catch`: a request that got no answer becomes `null` (the checks that need the same request
 * report it); anything else is a bug and is thrown on.
 */
export function ignoreScanFailure(error: unknown): null {
  if (error instanceof ScanFetchError) return null;
  throw error;
}

/** A request the scan's time budget cut short or kept from starting. */
export function timeBudgetError(settings: { limits: { scanBudgetMs: number } }, href: string): ScanFetchError {
  const seconds = settings.limits.scanBudgetMs / 1000;
  return new ScanFetchError("scan-time-budget", `not finished (${href}): the scan's ${seconds} s budget ran out`, href);
}
