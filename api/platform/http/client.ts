import { getRequestIP, type H3Event } from "h3";
import ipaddr from "ipaddr.js";

/**
 * Who a client is, for every rate limit of the service: its IPv4 address, or the /64 network of its
 * IPv6 address. One IPv6 subscriber is usually given a whole /64 (RFC 6177, RIPE-690), so counting
 * each of its 2^64 addresses apart would hand one client a fresh allowance per request. An IPv4
 * address written as IPv6 (`::ffff:198.51.100.7`, how a dual-stack socket reports one) is that
 * IPv4 address. Anything else (a proxy's malformed header) is counted as it is written.
 */
export function clientKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (!(parsed instanceof ipaddr.IPv6)) return parsed.toString();
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  const network = parsed.parts.slice(0, 4).map((part) => part.toString(16));
  return `${ipaddr.IPv6.parse(`${network.join(":")}::`).toString()}/64`;
}

/**
 * The client as the rate limits count it (`clientKey`): from the socket's address, or from
 * X-Forwarded-For's first hop when a trusted proxy is in front.
 */
export function clientAddress(event: H3Event, trustProxy: boolean): string {
  return clientKey(getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown");
}
