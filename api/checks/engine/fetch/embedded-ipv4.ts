import ipaddr from "ipaddr.js";

/** An IPv4 address carried inside an IPv6 address, and the form that carries it. */
export interface EmbeddedIpv4 {
  /** How the IPv6 address carries it, for messages: "IPv4-compatible", "NAT64", "6to4", "Teredo". */
  form: string;
  ipv4: ipaddr.IPv4;
}

/** What an IPv6 address says about IPv4: the addresses it carries, or a form never reached on the public internet. */
export type Ipv4Embedding = { kind: "embeds"; embedded: EmbeddedIpv4[] } | { kind: "never-public"; why: string };

const ipv4Of = (high: number, low: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

const within = (address: ipaddr.IPv6, prefix: string, bits: number): boolean =>
  address.match(ipaddr.IPv6.parse(prefix), bits);

/**
 * The IPv4 address(es) each IPv6 form that embeds one carries (IPv4-mapped `::ffff:0:0/96` is left
 * to `ipaddr.process`, which turns it into the IPv4 address itself):
 * - IPv4-compatible `::a.b.c.d` (`::/96`, RFC 4291 §2.5.5.1, deprecated): the last 32 bits;
 * - IPv4-translated `::ffff:0:a.b.c.d` (RFC 6145) and NAT64 `64:ff9b::/96` (RFC 6052): the last 32 bits;
 * - 6to4 `2002::/16` (RFC 3056): bits 16–47;
 * - Teredo `2001::/32` (RFC 4380): the server in bits 32–63 and the client, obfuscated (each bit
 *   inverted), in the last 32.
 * The local-use NAT64 prefix `64:ff9b:1::/48` (RFC 8215) is never public, and where it carries the
 * IPv4 address depends on a prefix length only its network knows, so it is refused as a whole.
 * `null` for an address that embeds nothing.
 */
export function ipv4Embedding(address: ipaddr.IPv6): Ipv4Embedding | null {
  const parts = address.parts;
  const at = (index: number): number => parts[index] ?? 0;
  const last = () => ipv4Of(at(6), at(7));
  if (within(address, "64:ff9b:1::", 48))
    return { kind: "never-public", why: "a local-use NAT64 address (RFC 8215), never a public one" };
  // `::` and `::1` are the unspecified and loopback addresses; the range check names them.
  if (within(address, "::", 96) && (at(6) !== 0 || at(7) > 1))
    return { kind: "embeds", embedded: [{ form: "IPv4-compatible", ipv4: last() }] };
  if (within(address, "::ffff:0:0:0", 96))
    return { kind: "embeds", embedded: [{ form: "IPv4-translated", ipv4: last() }] };
  if (within(address, "64:ff9b::", 96)) return { kind: "embeds", embedded: [{ form: "NAT64", ipv4: last() }] };
  if (within(address, "2002::", 16))
    return { kind: "embeds", embedded: [{ form: "6to4", ipv4: ipv4Of(at(1), at(2)) }] };
  if (within(address, "2001::", 32))
    return {
      kind: "embeds",
      embedded: [
        { form: "Teredo", ipv4: ipv4Of(at(6) ^ 0xffff, at(7) ^ 0xffff) },
        { form: "Teredo", ipv4: ipv4Of(at(2), at(3)) },
      ],
    };
  return null;
}

/**
 * IPv6 text in its canonical form. The WHATWG URL parser reads `::127.0.0.1` as the
 * IPv4-compatible `::7f00:1`; ipaddr.js would read it as the IPv4-mapped `::ffff:7f00:1`.
 */
export function canonicalIpv6(text: string): string {
  return new URL(`http://[${text}]/`).hostname.replace(/^\[|\]$/g, "");
}
