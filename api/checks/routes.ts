import { prefersMarkdown } from "../platform/http/accept.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { CheckOperations } from "./operations.ts";
import type { ChecksService } from "./service.ts";

export function checkRoutes(operations: CheckOperations, checks: ChecksService): HttpRoute[] {
  return [
    httpRoute(operations.run),
    httpRoute(operations.read, {
      // One URL, two representations: JSON for programs, a Markdown fix list for agents that ask.
      respond: async (event, { found }, view, headers) => {
        const vary = { ...headers, Vary: "Accept" };
        if (!prefersMarkdown(event.req.headers.get("accept"))) return jsonResponse(event, view, { headers: vary });
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
