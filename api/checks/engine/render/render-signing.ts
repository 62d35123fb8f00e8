/**
 * Which of the browser's requests carry the scanner's Web Bot Auth signature: those to the checked origin over https,
 * and no other. A signature names our key directory and is valid for minutes: sent to another origin it would let
 * that site replay it against the checked one within its window (the draft's §6.9 on replay), and sent over plain
 * http anyone on the path could copy it. The checked site, over TLS, is the party the scan introduces itself to.
 * Redirect hops, workers and WebSockets are not seen by the page's routing and go unsigned (docs: crawler).
 */
export function signsBrowserRequest(url: URL, origin: string): boolean {
  return url.protocol === "https:" && url.origin === origin;
}
