import { describeNetworkFailure, describeTlsFailure } from "./connection-failure.ts";

/**
 * Why a request of a scan did not produce a usable response. Every kind is the scanner's or the network's
 * failure, so a check that meets one reports `error`, never `fail`.
 */
export type ScanFetchErrorKind =
  | "target-not-allowed"
  | "timeout"
  | "scan-time-budget"
  | "request-budget"
  | "rate-limited"
  | "too-large"
  | "tls"
  | "network";

export interface ScanFetchErrorResponse {
  status: number;
  headers: Readonly<Record<string, string>>;
}

export class ScanFetchError extends Error {
  override name = "ScanFetchError";
  readonly kind: ScanFetchErrorKind;
  readonly url: string;
  /** The response that ended the scan's politeness (a 429), kept for the evidence trail. */
  readonly response: ScanFetchErrorResponse | null;

  constructor(kind: ScanFetchErrorKind, message: string, url: string, response: ScanFetchErrorResponse | null = null) {
    super(message);
    this.kind = kind;
    this.url = url;
    this.response = response;
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
