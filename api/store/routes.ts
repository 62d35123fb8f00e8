import { getRouterParam, type H3 } from "h3";
import { StoreCheckoutSchema } from "../../src/schemas/requests/store-checkout.ts";
import { requireAvailable } from "../platform/availability.ts";
import { readJson } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { fileResponse } from "../platform/http/file-response.ts";
import { onGet } from "../platform/http/get-route.ts";
import { jsonResponse } from "../platform/http/responses.ts";
import { enforceRateLimit, rememberLimits } from "../platform/limits/enforce.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { RouteDeps } from "../platform/route-deps.ts";

/**
 * The optional `Idempotency-Key` request header (draft-ietf-httpapi-idempotency-key-header): a
 * retried checkout with the same key and body gets the same session instead of a second one.
 */
function idempotencyKeyOf(header: string | null): string | undefined {
  if (header === null) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(header))
    throw new ApiProblem("bad-request", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  return header;
}

/** The store: hosted checkout, the purchase session, and the download by session id. */
export function registerStoreRoutes(app: H3, { config, services }: RouteDeps): void {
  const { limiter, monitor, content, store } = services;

  app.post("/api/v1/store/:id/checkout", async (event) => {
    await requireAvailable("startStoreCheckout", monitor, content.service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(limiter, "store-checkout", clientAddress(event, config.trustProxy)),
    );
    const input = await readJson(event, StoreCheckoutSchema, { limitBytes: config.bodyLimitBytes, optional: true });
    const started = await store.checkout.start(
      getRouterParam(event, "id") ?? "",
      input,
      idempotencyKeyOf(event.req.headers.get("idempotency-key")),
    );
    return jsonResponse(event, started, { status: 201, headers: limits });
  });

  onGet(app, "/api/v1/store/sessions/:session_id", async (event) => {
    await requireAvailable("getPurchaseSession", monitor, content.service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(limiter, "session-lookup", clientAddress(event, config.trustProxy)),
    );
    return jsonResponse(event, await store.sessions.lookup(getRouterParam(event, "session_id") ?? ""), {
      headers: limits,
    });
  });

  // Downloads answer HEAD too (the same headers, no body); the static catch-all would take it otherwise.
  for (const method of ["GET", "HEAD"] as const) {
    app.on(method, "/api/v1/store/sessions/:session_id/download", async (event) => {
      await requireAvailable("downloadPurchase", monitor, content.service);
      const limits = rememberLimits(
        event,
        await enforceRateLimit(limiter, "downloads", clientAddress(event, config.trustProxy)),
      );
      return fileResponse(event, await store.downloads.bySession(getRouterParam(event, "session_id") ?? ""), limits);
    });

    app.on(method, "/api/v1/downloads/:token", async (event) => {
      await requireAvailable("downloadByLink", monitor, content.service);
      const limits = rememberLimits(
        event,
        await enforceRateLimit(limiter, "downloads", clientAddress(event, config.trustProxy)),
      );
      return fileResponse(event, await store.downloads.byToken(getRouterParam(event, "token") ?? ""), limits);
    });
  }
}
