import { createHash } from "node:crypto";
import type { H3Event } from "h3";
import { FastResponse } from "srvx";
import { agentsDocument } from "../../src/lib/discovery/agents.ts";
import { capabilitiesDocument, serviceStateDocument, type DiscoveryContext } from "../../src/lib/discovery/documents.ts";
import { pricingDocument } from "../../src/lib/discovery/pricing.ts";
import type { ServiceState } from "../../src/lib/discovery/state.ts";
import { CORS_HEADERS } from "../../src/lib/manifest.ts";
import type { StaticRoute } from "../static/site-files.ts";
import type { AppServices } from "../app-services.ts";

type LiveHandler = (event: H3Event, base: StaticRoute) => Promise<Response>;

/**
 * The discovery documents that follow runtime state, computed per request (from a state reading
 * at most a second old) by the same functions that wrote their base files at build time.
 */
export function liveDiscovery(ctx: DiscoveryContext, services: AppServices, extras: { openapi: boolean; mcpCard: boolean }): Map<string, LiveHandler> {
  const documents: Record<string, (state: ServiceState) => unknown> = {
    "/capabilities.json": (state) => capabilitiesDocument(ctx, state),
    "/.well-known/service-state.json": (state) => serviceStateDocument(ctx, state),
    "/pricing.json": (state) => pricingDocument(ctx, state),
    "/agents.json": (state) => agentsDocument(ctx, state, extras),
  };
  const handlers = new Map<string, LiveHandler>();
  for (const [url, build] of Object.entries(documents)) {
    handlers.set(url, async (event, base) => {
      const body = `${JSON.stringify(build(await services.monitor.current()), null, 2)}\n`;
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      const headers = new Headers({ "Content-Type": base.entry.type, "Cache-Control": "no-cache", ETag: etag, ...CORS_HEADERS });
      if (event.req.headers.get("if-none-match") === etag) return new FastResponse(null, { status: 304, headers });
      return new FastResponse(event.req.method === "HEAD" ? null : body, { status: 200, headers });
    });
  }
  return handlers;
}
