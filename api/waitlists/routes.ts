import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { WaitlistOperations } from "./operations.ts";

/** An agent's entry and answer can be read back in its standing. */
const STANDING = "/api/v1/agents/me";

export function waitlistRoutes(operations: WaitlistOperations): HttpRoute[] {
  return [
    httpRoute(operations.join),
    httpRoute(operations.joinAgents, { location: () => STANDING }),
    httpRoute(operations.answerSurvey, { location: () => STANDING }),
  ];
}
