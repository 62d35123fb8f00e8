import { access, constants } from "node:fs/promises";
import { type Browser, chromium } from "playwright-core";
import { QUIET_CHROMIUM_ARGS } from "../../../../src/lib/chromium.ts";

/**
 * Playwright adds `<-loopback>` to the bypass list by itself unless an environment variable turns that off; naming it
 * here keeps it whatever the environment says. Without it Chromium sends localhost, 127/8, [::1] and 169.254/16
 * straight past any proxy (net/docs/proxy.md, "implicit bypass rules"; the research's experiment E4).
 */
export const PROXY_EVERYTHING = "<-loopback>";

/**
 * The guard flags on top of the quiet ones (src/lib/chromium.ts), each closing a way around the guard proxy that the
 * research (`oauth-mcp-and-rendering-2026-11.md` B1) saw leak:
 * - host-resolver rules: Chromium resolves no name itself (only the proxy's own 127.0.0.1), so the proxy picks every
 *   address and no page can make the browser look one up;
 * - WebRTC only over proxied UDP, i.e. none: a STUN request to a private address went direct without it;
 * - QUIC off (in the quiet flags): HTTP/3 is UDP, which an HTTP proxy does not carry;
 * - WebMCP and its DevTools domain, as Lighthouse's own runs enable them, so runtime tools and form schema issues are
 *   reported (CDP `WebMCP`, `Audits`);
 * - a 256 MB JavaScript heap per page, so one page cannot take the machine's memory.
 */
export const GUARD_CHROMIUM_ARGS: readonly string[] = Object.freeze([
  "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  // Chromium keeps one --enable-features: Playwright's own (no ListAccounts call on start) is repeated here.
  "--enable-features=WebMCPTesting,DevToolsWebMCPSupport,SkipListAccountsWithoutGaiaCookies",
  "--js-flags=--max-old-space-size=256",
  "--mute-audio",
]);

/** Why the browser cannot be used at `path`, or null when it is an executable file. */
export async function missingBrowser(path: string): Promise<string | null> {
  try {
    await access(path, constants.X_OK);
    return null;
  } catch {
    return `no Chromium at ${path} (install Debian's chromium package, or set CHROMIUM_PATH)`;
  }
}

/**
 * Launches the shared browser, headless, with every request of its own (outside any scan's context) sent to
 * `proxyUrl`, a guard proxy that refuses everything. Chromium refuses to start as root with its sandbox on; only then
 * is the sandbox turned off (run the service as an ordinary user to keep it).
 */
export function launchGuardedChromium(executablePath: string, proxyUrl: string): Promise<Browser> {
  const root = process.getuid?.() === 0;
  return chromium.launch({
    executablePath,
    headless: true,
    timeout: 30_000,
    proxy: { server: proxyUrl, bypass: PROXY_EVERYTHING },
    args: [...(root ? ["--no-sandbox"] : []), ...QUIET_CHROMIUM_ARGS, ...GUARD_CHROMIUM_ARGS],
  });
}
