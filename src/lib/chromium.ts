/** The Debian package that provides the browser the renderer and the browser tests drive, and where it puts it. */
export const CHROMIUM_PACKAGE = "chromium";
export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

/**
 * Debian's Chromium, unless CHROMIUM_PATH names another binary. A downloaded browser build is never used (this
 * machine cannot fetch one, and a deployment must not).
 */
export function chromiumPath(env: Readonly<Record<string, string | undefined>>): string {
  return env.CHROMIUM_PATH || DEBIAN_CHROMIUM;
}

/**
 * Flags that keep Chromium quiet on the network on its own account (no component updates, sync, first-run or
 * background requests, no QUIC) and stable in a container (no GPU, no /dev/shm). The checker's renderer adds its
 * guard flags to these (api/checks/engine/render/launch.ts); the browser tests use them as they are.
 */
export const QUIET_CHROMIUM_ARGS: readonly string[] = Object.freeze([
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
]);
