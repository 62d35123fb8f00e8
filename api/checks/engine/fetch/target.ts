import { defaultLookup } from "../dns/resolver.ts";
import type { CheckerSettings } from "../settings.ts";
import { type HostLookup, TargetNotAllowedError, vetDestination } from "./address-guard.ts";

/** What a scan is pointed at: one origin (scheme, host, port). */
export interface CheckTarget {
  input: string;
  origin: string;
  /** The origin's root, `<origin>/`. */
  root: URL;
  /** Listed in CHECKS_ALLOWED_TARGETS: a local fixture or the service itself, usually plain http. */
  allowListed: boolean;
}

// A scheme is letters followed by ":" and not a digit, so "localhost:8080" stays a host with a port.
const SCHEME_PATTERN = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/**
 * Accepts a hostname (IDN allowed; checked over https) or an http(s) URL whose origin is checked, and refuses
 * anything that is not a public address unless it is allow-listed. Throws TargetNotAllowedError with the reason.
 */
export async function parseTarget(
  input: string,
  settings: CheckerSettings,
  options: { lookup?: HostLookup; signal?: AbortSignal } = {},
): Promise<CheckTarget> {
  const trimmed = input.trim();
  if (trimmed === "" || trimmed.length > 2_048) {
    throw new TargetNotAllowedError("malformed", "give a hostname such as example.com or an https URL", input);
  }
  const hasScheme = SCHEME_PATTERN.test(trimmed);
  let url: URL;
  try {
    url = new URL(hasScheme ? trimmed : `https://${trimmed}`);
  } catch {
    throw new TargetNotAllowedError("malformed", `"${trimmed}" is neither a hostname nor a URL`, input);
  }
  if (url.hostname === "" && (url.protocol === "http:" || url.protocol === "https:")) {
    throw new TargetNotAllowedError("malformed", `"${trimmed}" has no host`, input);
  }
  const vetted = await vetDestination(url, settings, options.lookup ?? defaultLookup, options.signal);
  return { input: trimmed, origin: url.origin, root: new URL(`${url.origin}/`), allowListed: vetted.allowListed };
}
