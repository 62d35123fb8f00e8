import { prefersJsonVariant, prefersMarkdown } from "../platform/http/accept.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import { SARIF_MEDIA_TYPE } from "./formats/sarif.ts";
import type { CheckOperations } from "./operations.ts";
import type { ChecksService } from "./service.ts";

export function checkRoutes(operations: CheckOperations, checks: ChecksService): HttpRoute[] {
  return [
    httpRoute(operations.run),
    httpRoute(operations.read, {
      // One URL, three representations: JSON for programs, SARIF for CI, a Markdown fix list for agents that ask.
      respond: async (event, { found }, view, headers) => {
        const vary = { ...headers, Vary: "Accept" };
        const accept = event.req.headers.get("accept");
        // SARIF for code-scanning dashboards; a locked report gives only its free summary (ChecksService.sarif).
        if (prefersJsonVariant(accept, SARIF_MEDIA_TYPE))
          return completeResponse(event, JSON.stringify(checks.sarif(found)), {
            status: 200,
            type: SARIF_MEDIA_TYPE,
            headers: vary,
          });
        if (!prefersMarkdown(accept)) return jsonResponse(event, view, { headers: vary });
        return completeResponse(event, await checks.markdown(found), {
          status: 200,
          type: "text/markdown; charset=utf-8",
          headers: vary,
        });
      },
    }),
    httpRoute(operations.checkout),
    httpRoute(operations.redeem),
  ];
}
