/**
 * Hosts Chromium calls on its own account (sign-in, sync, updates, Safe Browsing, field trials, optimisation hints),
 * even with --disable-background-networking: the rendering research saw accounts.google.com and
 * android.clients.google.com asked through the proxy. They are public, so the address policy would let them through;
 * they are refused by name instead, because nothing a checked page does needs them and the scan must not talk to
 * anyone on the browser's behalf.
 */
const SERVICE_HOSTS: readonly string[] = [
  "accounts.google.com",
  "android.clients.google.com",
  "safebrowsing.google.com",
  "mtalk.google.com",
  "chrome.google.com",
  "chromewebstore.google.com",
  "clients.google.com",
];

/** Suffixes whose every host is a browser service: update CDNs and Google's API front. */
const SERVICE_SUFFIXES: readonly string[] = [".gvt1.com", ".gvt2.com", ".googleapis.com"];

/**
 * The few `*.googleapis.com` hosts that pages themselves load from (hosted libraries, web fonts, maps); every other
 * host of that suffix is the browser's business (update, safebrowsing, optimizationguide-pa, content-autofill, …).
 */
const PAGE_FACING_GOOGLEAPIS: readonly string[] = [
  "ajax.googleapis.com",
  "fonts.googleapis.com",
  "maps.googleapis.com",
  "storage.googleapis.com",
];

/** `clients1.google.com` … `clients6.google.com`: update and crash-report endpoints. */
const NUMBERED_CLIENTS = /^clients\d*\.google\.com$/;

/** Why a host is refused as one of the browser's own services, or null for any other host. */
export function browserServiceRefusal(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  if (PAGE_FACING_GOOGLEAPIS.includes(name)) return null;
  const service =
    SERVICE_HOSTS.includes(name) ||
    NUMBERED_CLIENTS.test(name) ||
    SERVICE_SUFFIXES.some((suffix) => name.endsWith(suffix));
  return service ? `${name} is a browser service, not part of the checked site` : null;
}
