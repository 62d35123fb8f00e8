import { KEY_DIRECTORY_PATH, type RequestSigner } from "../../platform/signing/request-signature.ts";

/** Raised when the checker is configured in a way that would weaken its SSRF guard. */
export class CheckerConfigurationError extends Error {
  override name = "CheckerConfigurationError";
}

/** The per-scan bounds that keep a scan polite (DESIGN §8). */
export interface CheckerLimits {
  /** Network requests one scan may send, redirect hops included. */
  maxRequests: number;
  /** Connect + headers + body of one request. */
  requestTimeoutMs: number;
  /** The whole scan; requests still running when it ends are aborted. */
  scanBudgetMs: number;
  /** Bytes of one response body, counted after decompression. */
  maxResponseBytes: number;
  /** Redirect hops followed by hand, each re-validated. */
  maxRedirects: number;
  /** Requests in flight at once against the target. */
  maxConcurrency: number;
  /**
   * The last requests of the budget, which sampling (link resolution) may not use: essential fetches keep them. A site
   * that publishes every surface (this service itself) needs about 20 essential requests after the samples.
   */
  sampleReserve: number;
}

export const DEFAULT_CHECKER_LIMITS: CheckerLimits = Object.freeze({
  maxRequests: 60,
  requestTimeoutMs: 5_000,
  scanBudgetMs: 15_000,
  maxResponseBytes: 1_000_000,
  maxRedirects: 3,
  maxConcurrency: 6,
  sampleReserve: 20,
});

/** A `host[:port]` the checker may reach although it is not public; `port: null` means any port. */
export interface AllowedTarget {
  host: string;
  port: number | null;
}

export interface CheckerSettings {
  production: boolean;
  allowedTargets: readonly AllowedTarget[];
  userAgent: string;
  limits: CheckerLimits;
  /** Signs every request the scan sends (Web Bot Auth), so site owners can verify and allow the crawler; `null` only in tests not about signing. */
  signer: RequestSigner | null;
  /** The key directory a signature's `Signature-Agent` names: what a site owner allows (the service's own). */
  keyDirectory: string;
}

export interface CheckerSettingsInput {
  production?: boolean;
  /** `host[:port]` entries, e.g. `127.0.0.1:4321`, `[::1]:8080`, `localhost`. */
  allowedTargets?: readonly string[];
  /** The service's public URL, named in the User-Agent so site owners can find out who is asking. */
  siteUrl?: string;
  limits?: Partial<CheckerLimits>;
  signer?: RequestSigner | null;
}

const DEFAULT_SITE_URL = "http://127.0.0.1:4321";

export function checkerUserAgent(siteUrl: string): string {
  return `AgentReadyBot/1.0 (+${siteUrl.replace(/\/+$/, "")}/docs/checks/crawler)`;
}

/** Builds settings from explicit values; refuses an allowance for private targets in production. */
export function defineCheckerSettings(input: CheckerSettingsInput = {}): CheckerSettings {
  const production = input.production ?? false;
  const allowedTargets = (input.allowedTargets ?? []).map(parseAllowedTarget);
  if (production && allowedTargets.length > 0) {
    throw new CheckerConfigurationError(
      "CHECKS_ALLOWED_TARGETS must be empty in production: it lets the checker reach private addresses",
    );
  }
  return {
    production,
    allowedTargets,
    userAgent: checkerUserAgent(input.siteUrl ?? DEFAULT_SITE_URL),
    limits: { ...DEFAULT_CHECKER_LIMITS, ...input.limits },
    signer: input.signer ?? null,
    keyDirectory: new URL(KEY_DIRECTORY_PATH, input.siteUrl ?? DEFAULT_SITE_URL).href,
  };
}

const ALLOWED_TARGET_PATTERN = /^(\[[0-9a-fA-F:.]+\]|[^\s:/@[\]]+)(?::(\d{1,5}))?$/;

export function parseAllowedTarget(entry: string): AllowedTarget {
  const match = ALLOWED_TARGET_PATTERN.exec(entry.trim());
  const hostPart = match?.[1];
  if (match === null || hostPart === undefined) {
    throw new CheckerConfigurationError(`CHECKS_ALLOWED_TARGETS entry "${entry}" is not host[:port]`);
  }
  let host: string;
  try {
    host = new URL(`http://${hostPart}/`).hostname;
  } catch {
    throw new CheckerConfigurationError(`CHECKS_ALLOWED_TARGETS entry "${entry}" has an invalid host`);
  }
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535)) {
    throw new CheckerConfigurationError(`CHECKS_ALLOWED_TARGETS entry "${entry}" has an invalid port`);
  }
  return { host, port };
}

/** `url.hostname` keeps IPv6 brackets, as allow-list hosts do. The allowance is inert in production, whatever built the settings. */
export function isAllowListed(url: URL, settings: CheckerSettings): boolean {
  if (settings.production) return false;
  const port = effectivePort(url);
  return settings.allowedTargets.some(
    (entry) => entry.host === url.hostname && (entry.port === null || entry.port === port),
  );
}

export function effectivePort(url: URL): number {
  if (url.port !== "") return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
}

/** The checker's settings from the service's parsed configuration (api/config.ts). */
export function checkerSettingsFromConfig(
  config: {
    env: string;
    checksAllowedTargets: readonly string[];
    siteUrl: string;
  },
  signer: RequestSigner | null,
): CheckerSettings {
  return defineCheckerSettings({
    production: config.env === "production",
    allowedTargets: config.checksAllowedTargets,
    siteUrl: config.siteUrl,
    signer,
  });
}
