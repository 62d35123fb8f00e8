import { performance } from "node:perf_hooks";
import { logRequestLine } from "../platform/access-log.ts";
import { requestIdFrom } from "../platform/http/request-id.ts";
import type { Logger } from "../platform/log.ts";
import type { SiteFiles } from "../site/site-files.ts";
import { staticAnswer } from "../site/static-answer.ts";
import { type HotRoute, hotHeaders, writeWholeResponse } from "./hot-routes.ts";

/**
 * Every file of the build that is not live, answered on node:http with the app's own `staticAnswer`:
 * GET and HEAD only (anything else goes to the app, which says 405). The app logs static files at
 * debug level; so does this.
 */
export function staticFileRoutes(site: SiteFiles, log: Logger): Map<string, HotRoute> {
  const routes = new Map<string, HotRoute>();
  for (const route of site.routes.values()) {
    if (route.entry.live) continue;
    routes.set(route.url, (request, response) => {
      const method = request.method ?? "GET";
      if (method !== "GET" && method !== "HEAD") return false;
      const headers = hotHeaders(request);
      if (!headers) return false;
      const started = performance.now();
      const answer = staticAnswer(site, route, {
        method,
        accept: headers.accept,
        acceptEncoding: headers["accept-encoding"],
        ifNoneMatch: headers["if-none-match"],
      });
      writeWholeResponse(response, answer.status, answer.headers, answer.body);
      if (log.isLevelEnabled("debug")) {
        const requestId = requestIdFrom(headers["x-request-id"]);
        logRequestLine(log, "debug", {
          requestId,
          method,
          path: route.url,
          status: answer.status,
          ms: performance.now() - started,
        });
      }
      return true;
    });
  }
  return routes;
}
