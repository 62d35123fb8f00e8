import { Resolver } from "node:dns/promises";
import { Slots } from "../budget/slots.ts";
import { type HostLookup, type ResolvedAddress, systemLookup } from "../fetch/address-guard.ts";

export interface ResolverLookupOptions {
  /**
   * Name servers, `ip` or `ip:port`: tests point the lookup at a server on loopback. Never from a request or the
   * environment; without it, the system's (`/etc/resolv.conf`).
   */
  servers?: readonly string[];
  /** One query's first wait; c-ares doubles it on each retry, up to `timeoutMs` here (its `maxTimeout`). */
  timeoutMs?: number;
  /** Queries sent to each name server before the lookup gives up. */
  tries?: number;
  /** Lookups in flight at once across the instance; the rest wait for a turn (or for their scan to end). */
  maxInFlight?: number;
}

/** Name lookups one scan may have in flight: a site that redirects to fresh names waits its turn, others do not. */
export const LOOKUPS_PER_SCAN = 2;

/** A lookup takes at most about tries × timeout: 2 s, well inside a scan's 15 s budget. */
export const RESOLVER_DEFAULTS = { timeoutMs: 1_000, tries: 2, maxInFlight: 32 } as const;

/** `lookup` with at most `max` of its lookups in flight: a scan's own cap, or an instance's. */
export function limitLookups(lookup: HostLookup, max: number): HostLookup {
  const slots = new Slots(max);
  return async (hostname, context = {}) => {
    await slots.acquire(context.signal);
    try {
      return await lookup(hostname, context);
    } finally {
      slots.release();
    }
  };
}

/** The error a failed lookup reports: the A query's, unless it only said "no A records" and the AAAA one says more. */
function lookupError(hostname: string, reasons: readonly unknown[]): Error {
  const codes = reasons.map((reason) => (reason instanceof Error && "code" in reason ? String(reason.code) : ""));
  const code = codes.find((candidate) => candidate !== "" && candidate !== "ENODATA") ?? codes[0] ?? "ENOTFOUND";
  return Object.assign(new Error(`${hostname} does not resolve (${code})`), { code });
}

/**
 * Every A and AAAA record of a name, from c-ares (node:dns `Resolver`): its sockets are on the event loop, not on
 * libuv's four-thread pool, where `dns.lookup` (getaddrinfo) waits for a name server that never answers for as long
 * as the system's resolver likes and holds up every other lookup, file read and zlib stream of the process. Each
 * lookup has its own resolver, its own time-out and tries, and is cancelled when the scan's signal aborts.
 */
async function resolveAddresses(
  hostname: string,
  options: Required<Omit<ResolverLookupOptions, "maxInFlight">>,
  signal: AbortSignal | undefined,
): Promise<ResolvedAddress[]> {
  signal?.throwIfAborted();
  const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries, maxTimeout: options.timeoutMs });
  if (options.servers.length > 0) resolver.setServers([...options.servers]);
  const cancel = (): void => resolver.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  // c-ares keeps to its time-out; this is only the backstop that no lookup outlives it (on a busy event loop it can
  // come first, and what it ends is a time-out all the same).
  let expired = false;
  const backstop = setTimeout(
    () => {
      expired = true;
      cancel();
    },
    options.timeoutMs * options.tries + 500,
  );
  try {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    signal?.throwIfAborted();
    const addresses: ResolvedAddress[] = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
    ];
    if (addresses.length > 0) return addresses;
    if (expired) throw lookupError(hostname, [Object.assign(new Error("timed out"), { code: "ETIMEOUT" })]);
    throw lookupError(
      hostname,
      [v4, v6].flatMap((result) => (result.status === "rejected" ? [result.reason] : [])),
    );
  } finally {
    clearTimeout(backstop);
    signal?.removeEventListener("abort", cancel);
  }
}

/**
 * The scanner's name lookups: c-ares with a time-out and tries, at most `maxInFlight` at once across the instance.
 * A name CHECKS_ALLOWED_TARGETS lists (local work and tests, never production) is resolved by the system instead,
 * hosts file included, unless the lookup was given its own name servers.
 */
export function createResolverLookup(options: ResolverLookupOptions = {}): HostLookup {
  const settings = {
    servers: options.servers ?? [],
    timeoutMs: options.timeoutMs ?? RESOLVER_DEFAULTS.timeoutMs,
    tries: options.tries ?? RESOLVER_DEFAULTS.tries,
  };
  const resolve: HostLookup = (hostname, context = {}) =>
    context.allowListed === true && settings.servers.length === 0
      ? systemLookup(hostname, context)
      : resolveAddresses(hostname, settings, context.signal);
  return limitLookups(resolve, options.maxInFlight ?? RESOLVER_DEFAULTS.maxInFlight);
}

/** The instance's lookup: one cap on lookups in flight for every scan this process runs. */
export const defaultLookup: HostLookup = createResolverLookup();
