import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent } from "undici";
import type { CheckerLimits } from "../settings.ts";
import type { ResolvedAddress } from "./address-guard.ts";

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A connect-time lookup that answers only from `pins`, the addresses the scan vetted, and never asks DNS again, so a
 * name cannot rebind to a private address between the check and the connection (OWASP SSRF cheat sheet, "DNS
 * pinning"). A name that was not vetted fails with ENOTVETTED. Literal IPs never reach a lookup; they are judged
 * before the request.
 */
export function vettedLookup(
  pins: ReadonlyMap<string, readonly ResolvedAddress[]>,
): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    const pinned = pins.get(hostname.toLowerCase());
    const first = pinned?.[0];
    if (pinned === undefined || first === undefined) {
      const error: NodeJS.ErrnoException = new Error(
        `refusing to connect to ${hostname}: it was not vetted for this scan`,
      );
      error.code = "ENOTVETTED";
      callback(error, []);
      return;
    }
    const wanted =
      options.family === 4 || options.family === 6 ? pinned.filter((entry) => entry.family === options.family) : pinned;
    if (options.all === true) {
      callback(
        null,
        wanted.map((entry) => ({ address: entry.address, family: entry.family })),
      );
      return;
    }
    const chosen = wanted[0] ?? first;
    callback(null, chosen.address, chosen.family);
  };
}

/** An undici Agent whose sockets only ever connect to addresses the scan vetted before the request (vettedLookup). */
export function createPinnedAgent(
  pins: ReadonlyMap<string, readonly ResolvedAddress[]>,
  limits: Pick<CheckerLimits, "requestTimeoutMs" | "maxConcurrency">,
  /** Certificate authorities to trust instead of the system's (a test's own, for an allow-listed host only). */
  tls?: { ca: string },
): Agent {
  const lookup = vettedLookup(pins);
  return new Agent({
    connect: { lookup, timeout: limits.requestTimeoutMs, ...(tls ? { ca: tls.ca } : {}) },
    headersTimeout: limits.requestTimeoutMs,
    bodyTimeout: limits.requestTimeoutMs,
    connections: limits.maxConcurrency,
  });
}
