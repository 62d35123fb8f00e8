import { getRequestIP, type H3Event } from "h3";

/** The client's address: the socket's, or X-Forwarded-For's first hop when a trusted proxy is in front. */
export function clientAddress(event: H3Event, trustProxy: boolean): string {
  return getRequestIP(event, { xForwardedFor: trustProxy }) ?? "unknown";
}
