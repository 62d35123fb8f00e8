/** The Debian package the browser tests drive, and where it puts the browser. */
export const CHROMIUM_PACKAGE = "chromium";
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * The one browser the tests launch: Debian's Chromium, unless CHROMIUM_PATH names another binary.
 * A downloaded browser build is never used (this machine cannot fetch one, and CI must not).
 */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  return env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
}
