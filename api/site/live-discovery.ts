import { createHash } from "node:crypto";
import type { H3Event } from "h3";
import { FastResponse } from "srvx";
import { agentsDocument } from "../../src/lib/discovery/agents.ts";
import { AI_CATALOG_PATHS, aiCatalogDocument, isMcpCardAvailable } from "../../src/lib/discovery/ai-catalog.ts";
import {
  capabilitiesDocument,
  type DiscoveryContext,
  serviceStateDocument,
} from "../../src/lib/discovery/documents.ts";
import { MCP_CARD_PATHS } from "../../src/lib/discovery/mcp-card.ts";
import { pricingDocument } from "../../src/lib/discovery/pricing.ts";
import type { ServiceState } from "../../src/lib/discovery/state.ts";
import { CORS_HEADERS } from "../../src/lib/manifest.ts";
import { productIndexDocument } from "../../src/lib/outputs/store.ts";
import { codeDynamicBody } from "../platform/http/encoding/dynamic-coding.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import type { StaticRoute } from "./site-files.ts";

type LiveHandler = (event: H3Event, base: StaticRoute) => Promise<Response>;

/**
 * The MCP card extension asks for these on cards; every live discovery document gets them. `no-cache`
 * rather than an hour: a switched-off capability must leave every document at once, and the ETag makes
 * revalidation a 304.
 */
const LIVE_HEADERS = {
  "Cache-Control": "no-cache",
  "Access-Control-Allow-Methods": "GET, HEAD",
  ...CORS_HEADERS,
} as const;

/**
 * A live document's answer: built per request, so compressed per request like every other dynamic
 * body over a kilobyte (`codeDynamicBody`: `Vary: Accept-Encoding`, the coding in the ETag, and a
 * 304 for the ETag of the coding the client would get).
 */
function answer(event: H3Event, type: string, body: string, etag: string): Response {
  const coded = codeDynamicBody([["Content-Type", type], ["ETag", etag], ...Object.entries(LIVE_HEADERS)], body, {
    method: event.req.method,
    acceptEncoding: event.req.headers.get("accept-encoding"),
    ifNoneMatch: event.req.headers.get("if-none-match"),
  });
  return new FastResponse(coded.body as BodyInit | null, {
    status: coded.notModified ? 304 : 200,
    headers: coded.headers,
  });
}

/**
 * The discovery documents that follow runtime state, computed per request (from a state reading
 * at most a second old) by the same functions that wrote their base files at build time.
 */
export function liveDiscovery(
  ctx: DiscoveryContext,
  monitor: ServiceStateMonitor,
  extras: { openapi: boolean; mcpCard: boolean },
): Map<string, LiveHandler> {
  const documents: Record<string, (state: ServiceState) => unknown> = {
    "/capabilities.json": (state) => capabilitiesDocument(ctx, state),
    "/.well-known/service-state.json": (state) => serviceStateDocument(ctx, state),
    "/pricing.json": (state) => pricingDocument(ctx, state),
    "/agents.json": (state) => agentsDocument(ctx, state, extras),
    "/api/v1/products": (state) => productIndexDocument(ctx, state),
  };
  // Both ARD paths answer the same bytes: one function, one serialisation.
  for (const url of AI_CATALOG_PATHS) documents[url] = (state) => aiCatalogDocument(ctx, state);
  const handlers = new Map<string, LiveHandler>();
  for (const [url, build] of Object.entries(documents)) {
    handlers.set(url, async (event, base) => {
      const body = `${JSON.stringify(build(await monitor.current()), null, 2)}\n`;
      const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
      return answer(event, base.entry.type, body, etag);
    });
  }
  // The card's bytes never change at runtime; whether it is served does (the `mcp` switch).
  for (const url of MCP_CARD_PATHS) {
    let cardText: string | undefined;
    handlers.set(url, async (event, base) => {
      if (!isMcpCardAvailable(ctx, await monitor.current()))
        throw new ApiProblem("not-found", "The MCP server is switched off; /capabilities.json lists what works now.");
      cardText ??= new TextDecoder().decode(base.body);
      return answer(event, base.entry.type, cardText, base.entry.etag);
    });
  }
  return handlers;
}
