import { chromiumPath as chromiumPathIn } from "../../src/lib/chromium.ts";

export { CHROMIUM_PACKAGE, DEBIAN_CHROMIUM } from "../../src/lib/chromium.ts";

/**
 * The one browser the tests launch: Debian's Chromium, unless CHROMIUM_PATH names another binary.
 * A downloaded browser build is never used (this machine cannot fetch one, and CI must not).
 */
export function chromiumPath(env: Record<string, string | undefined> = process.env): string {
  return chromiumPathIn(env);
}
