import { createHash } from "node:crypto";
import type { OperationId } from "../../src/lib/registry.ts";
import { completeResponse } from "../platform/http/responses.ts";
import type { OperationDefinition } from "../platform/operations/definition.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { HistoryPage, MonitorOperations } from "./operations.ts";
import { monitorApiPath } from "./service.ts";

/** Caches may keep a badge for five minutes: runs are daily at most, and a README shows it on every view. */
const BADGE_CACHE = "public, max-age=300, stale-while-revalidate=3600";

/**
 * A history read: the page comes from the query, which the registry's routes do not read, so each
 * request gets its own definition.
 */
function withHistoryPage<Id extends OperationId, Found, Result>(
  definitionFor: (page: HistoryPage) => OperationDefinition<Id, Found, Result>,
): HttpRoute {
  return {
    id: definitionFor({}).id,
    serve: (event, deps) => {
      const query = event.url.searchParams;
      const page = { before: query.get("before") ?? undefined, limit: query.get("limit") ?? undefined };
      return httpRoute(definitionFor(page)).serve(event, deps);
    },
  };
}

export function monitorRoutes(operations: MonitorOperations): HttpRoute[] {
  return [
    httpRoute(operations.request),
    httpRoute(operations.confirm),
    httpRoute(operations.unsubscribe),
    withHistoryPage(operations.read),
    httpRoute(operations.createForAgent, {
      location: ({ monitor }) => monitorApiPath(monitor.id),
      respond: (event, _call, { monitor, created }, headers) =>
        completeResponse(event, JSON.stringify(monitor), {
          status: created ? 201 : 200,
          type: "application/json",
          headers,
        }),
    }),
    httpRoute(operations.listForAgent),
    withHistoryPage(operations.readForAgent),
    httpRoute(operations.badge, {
      // A neutral badge answers an unknown domain too, with 404, so an embed never shows a broken image.
      respond: (event, _call, badge, headers) =>
        completeResponse(event, badge.svg, {
          status: badge.status,
          type: "image/svg+xml; charset=utf-8",
          headers: {
            ...headers,
            "Cache-Control": BADGE_CACHE,
            ETag: `"${createHash("sha256").update(badge.svg).digest("base64url").slice(0, 27)}"`,
          },
        }),
    }),
  ];
}
