import { completeResponse } from "../platform/http/responses.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { AgentOperations } from "./operations.ts";
import type { AgentService } from "./service.ts";

export function agentRoutes(operations: AgentOperations, agents: AgentService): HttpRoute[] {
  return [
    httpRoute(operations.register, { location: () => "/api/v1/agents/me" }),
    httpRoute(operations.standing, {
      // The standing is serialised once per owner reading (see AgentService.standingJson).
      respond: (event, { agent }, _standing, headers) =>
        completeResponse(event, agents.standingJson(agent), { status: 200, type: "application/json", headers }),
    }),
  ];
}
