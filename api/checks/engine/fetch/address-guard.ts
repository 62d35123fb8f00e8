import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { type CheckerSettings, effectivePort, isAllowListed } from "../settings.ts";
import { canonicalIpv6, type EmbeddedIpv4, ipv4Embedding } from "./embedded-ipv4.ts";

export type TargetRefusalReason = "malformed" | "scheme" | "userinfo" | "port" | "non-public-address" | "unresolvable";

/** A target or redirect hop the checker refuses to reach; the API answers it with a 422 `target-not-allowed`. */
export class TargetNotAllowedError extends Error {
  override name = "TargetNotAllowedError";
  readonly reason: TargetRefusalReason;
  readonly target: string;

  constructor(reason: TargetRefusalReason, message: string, target: string) {
    super(message);
    this.reason = reason;
    this.target = target;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** What a lookup is told besides the name. */
export interface LookupContext {
  /** The scan's time budget (or a caller's own): a lookup still running when it aborts is abandoned. */
  signal?: AbortSignal;
  /** The name is listed in CHECKS_ALLOWED_TARGETS (local work and tests; never in production). */
  allowListed?: boolean;
}

/**
 * Resolves every A and AAAA record of a name. The scanner's is c-ares with a time-out and a cap on lookups in flight
 * (dns/resolver.ts); injectable so tests can make a name resolve to a private address or never answer.
 */
export type HostLookup = (hostname: string, context?: LookupContext) => Promise<readonly ResolvedAddress[]>;

/**
 * The system's resolver (getaddrinfo, hosts file included), on libuv's thread pool and with no time-out of its own:
 * only for names an operator allow-listed, never for a name a checked site chose.
 */
export const systemLookup: HostLookup = async (hostname, context = {}) => {
  const results = await abortable(dnsLookup(hostname, { all: true, verbatim: true }), context.signal);
  return results.map((result) => ({ address: result.address, family: result.family === 6 ? 6 : 4 }));
};

/** `task`, or a rejection with the signal's reason as soon as it aborts (the task is left to settle on its own). */
function abortable<T>(task: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return task;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => reject(signal.reason);
    signal.addEventListener("abort", stop, { once: true });
    task.then(resolve, reject).finally(() => signal.removeEventListener("abort", stop));
  });
}

// ipaddr.js names every special-purpose block (IANA registries); anything but "unicast" is off limits (OWASP SSRF
// cheat sheet, case 2). IPv6 forms that carry an IPv4 address are judged by the address they carry (embedded-ipv4.ts).
const RANGE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address (this range holds cloud metadata services)",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address (RFC 6598)",
  private: "a private address (RFC 1918)",
  reserved: "a reserved address",
  uniqueLocal: "a unique local address (RFC 4193)",
};

const describeRange = (range: string): string => RANGE_DESCRIPTIONS[range] ?? `a non-public address (${range})`;

/** Why an address is not a public unicast address, or null when it is. */
export function describeNonPublicAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  if (!ipaddr.isValid(bare)) return `${address} is not an IP address`;
  const original = ipaddr.parse(isIP(bare) === 6 ? canonicalIpv6(bare) : bare);
  if (original.kind() === "ipv6") {
    const embedded = describeEmbeddedIpv4(original as ipaddr.IPv6);
    if (embedded !== undefined) return embedded;
  }
  const parsed = ipaddr.process(original.toString());
  const range = parsed.range();
  if (range === "unicast") return null;
  const description = describeRange(range);
  const canonical = parsed.toString();
  return original.kind() !== parsed.kind()
    ? `${bare} is an IPv4-mapped form of ${canonical}, ${description}`
    : `${canonical} is ${description}`;
}

/**
 * An IPv6 form that carries an IPv4 address is refused when the address it carries is not public,
 * naming that address. With a public one inside, only NAT64 is let through: an IPv6-only network's
 * DNS64 answers with such addresses for every IPv4-only site. The deprecated and tunnelling forms
 * are not checked at all. `undefined` when the address carries no IPv4 address.
 */
function describeEmbeddedIpv4(address: ipaddr.IPv6): string | null | undefined {
  const embedding = ipv4Embedding(address);
  if (embedding === null) return undefined;
  const shown = address.toString();
  if (embedding.kind === "never-public") return `${shown} is ${embedding.why}`;
  const article = (form: string) => (/^[aeiou]/i.test(form) ? "an" : "a");
  for (const { form, ipv4 } of embedding.embedded) {
    const range = ipv4.range();
    if (range !== "unicast") return `${shown} is ${article(form)} ${form} form of ${ipv4}, ${describeRange(range)}`;
  }
  const [{ form, ipv4 }] = embedding.embedded as [EmbeddedIpv4, ...EmbeddedIpv4[]];
  if (form === "NAT64") return null;
  return `${shown} is ${article(form)} ${form} address (a way to reach ${ipv4}): only native IPv4 and IPv6 addresses are checked`;
}

/**
 * Names that are never public, judged before any DNS (a resolver may be configured to answer
 * them with anything): RFC 6761 §6.3 `localhost`, RFC 6762 `.local`, RFC 8375 `.home.arpa`, and
 * ICANN's reserved `.internal`.
 */
export function describeReservedName(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) return `${name} is a loopback name (RFC 6761)`;
  const suffix = [".local", ".home.arpa", ".internal"].find(
    (candidate) => name.endsWith(candidate) || name === candidate.slice(1),
  );
  return suffix ? `${name} is a private network name (${suffix} is never public)` : null;
}

export interface VettedDestination {
  /** The host without IPv6 brackets, as the connect-time lookup sees it. */
  hostname: string;
  addresses: readonly ResolvedAddress[];
  literal: boolean;
  allowListed: boolean;
}

/**
 * Checks one URL before any connection: scheme, userinfo, port, and every address the name resolves to.
 * A literal IP skips DNS, and so also skips the connect-time lookup: it has to be judged here. The lookup ends when
 * `signal` aborts (the scan's time budget), whether or not `lookup` itself listens to it.
 */
export async function vetDestination(
  url: URL,
  settings: CheckerSettings,
  lookup: HostLookup,
  signal?: AbortSignal,
): Promise<VettedDestination> {
  const shown = url.href;
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new TargetNotAllowedError(
      "scheme",
      `only http and https can be checked, not ${url.protocol.replace(/:$/, "")}`,
      shown,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new TargetNotAllowedError("userinfo", "URLs with a user name or password are not checked", shown);
  }
  const allowListed = isAllowListed(url, settings);
  const port = effectivePort(url);
  if (!allowListed && port !== 80 && port !== 443) {
    throw new TargetNotAllowedError("port", `port ${port} is not checked: only 80 and 443 are`, shown);
  }
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  const family = isIP(hostname);
  if (family !== 0) {
    const why = describeNonPublicAddress(hostname);
    if (why !== null && !allowListed) throw new TargetNotAllowedError("non-public-address", why, shown);
    return { hostname, addresses: [{ address: hostname, family: family === 6 ? 6 : 4 }], literal: true, allowListed };
  }
  const reserved = describeReservedName(hostname);
  if (reserved !== null && !allowListed) throw new TargetNotAllowedError("non-public-address", reserved, shown);
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await abortable(lookup(hostname, { ...(signal === undefined ? {} : { signal }), allowListed }), signal);
  } catch (error) {
    if (signal?.aborted === true)
      throw new TargetNotAllowedError(
        "unresolvable",
        `${hostname} did not resolve within the scan's time budget`,
        shown,
      );
    const code = error instanceof Error && "code" in error ? ` (${String(error.code)})` : "";
    throw new TargetNotAllowedError("unresolvable", `${hostname} does not resolve${code}`, shown);
  }
  if (addresses.length === 0) throw new TargetNotAllowedError("unresolvable", `${hostname} does not resolve`, shown);
  if (!allowListed) {
    for (const { address } of addresses) {
      const why = describeNonPublicAddress(address);
      if (why !== null) throw new TargetNotAllowedError("non-public-address", `${hostname} resolves to ${why}`, shown);
    }
  }
  return { hostname, addresses, literal: false, allowListed };
}
