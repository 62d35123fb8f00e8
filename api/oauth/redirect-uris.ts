/**
 * Which redirect URIs a client may register (by dynamic registration or in its client ID metadata
 * document), and how one sent with an authorization request matches a registered one.
 *
 * - https anywhere;
 * - http only to a loopback address (RFC 8252 §7.3; OAuth 2.1 §2.3.1), matched whatever its port,
 *   since a native client picks a free port each time;
 * - a private-use scheme (RFC 8252 §7.1: `cursor://…`, `com.example.app:/cb`): the client is then a
 *   native app, which the authorization server never lets skip the consent page.
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "blob:",
  "about:",
  "ftp:",
  "ws:",
  "wss:",
]);

export type RedirectKind = "https" | "loopback" | "private-use";

/** What kind of redirect URI this is, or why it may not be registered. */
export function redirectKind(uri: string): { kind: RedirectKind } | { refused: string } {
  const parsed = URL.parse(uri);
  if (!parsed) return { refused: `${uri} is not an absolute URI` };
  if (parsed.hash !== "" || uri.includes("#")) return { refused: `${uri} has a fragment (RFC 6749 §3.1.2)` };
  if (parsed.username !== "" || parsed.password !== "") return { refused: `${uri} carries a user name or password` };
  if (parsed.protocol === "https:") return { kind: "https" };
  if (parsed.protocol === "http:") {
    return LOOPBACK_HOSTS.has(parsed.hostname)
      ? { kind: "loopback" }
      : { refused: `${uri} is http to a host other than this machine's loopback address; use https` };
  }
  if (REFUSED_SCHEMES.has(parsed.protocol)) return { refused: `${uri} uses the ${parsed.protocol} scheme` };
  return { kind: "private-use" };
}

/** Every reason the list may not be registered (empty when it may). */
export function refusedRedirects(uris: unknown): string[] {
  if (!Array.isArray(uris) || uris.length === 0) return ["redirect_uris must list at least one URI"];
  return uris.flatMap((uri) => {
    if (typeof uri !== "string") return ["redirect_uris must only contain strings"];
    const kind = redirectKind(uri);
    return "refused" in kind ? [kind.refused] : [];
  });
}

/** An http loopback URI without its port, or null for anything else. */
function withoutLoopbackPort(uri: string): string | null {
  const parsed = URL.parse(uri);
  if (parsed?.protocol !== "http:" || !LOOPBACK_HOSTS.has(parsed.hostname)) return null;
  parsed.port = "";
  return parsed.href;
}

/** Whether `requested` is one of the registered URIs: exactly, or a loopback one on another port (RFC 8252 §7.3). */
export function redirectMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const portless = withoutLoopbackPort(requested);
  return portless !== null && registered.some((uri) => withoutLoopbackPort(uri) === portless);
}

/** True when every URI is a loopback one: consent then warns that any program on the device could be asking. */
export function allLoopback(uris: readonly string[]): boolean {
  return uris.length > 0 && uris.every((uri) => withoutLoopbackPort(uri) !== null);
}
