import type { EventHandler, H3 } from "h3";

/**
 * A GET route that answers HEAD too (RFC 9110 §9.3.2: same headers, no body; `completeResponse`
 * drops the body). h3's router keeps the methods apart, and the static catch-all would otherwise
 * answer HEAD with a 404.
 */
export function onGet(app: H3, path: string, handler: EventHandler): void {
  app.get(path, handler);
  app.on("HEAD", path, handler);
}
