import { isOperationAvailable } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { logRequestLine } from "../platform/access-log.ts";
import { ownerInMemory } from "../platform/auth/bearer.ts";
import type { TokenOwner } from "../platform/auth/token-owner.ts";
import type { TokenOwnerCache } from "../platform/auth/token-owner-cache.ts";
import { codeDynamicBody } from "../platform/http/encoding/dynamic-coding.ts";
import { requestIdFrom } from "../platform/http/request-id.ts";
import { responseHeaders } from "../platform/http/responses.ts";
import type { Logger } from "../platform/log.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import { type HotRoute, hotHeaders, writeWholeResponse } from "./hot-routes.ts";

/**
 * `GET /api/v1/agents/me` for a token whose owner was read in the last second, while the service
 * state reading is fresh too: the busiest authenticated read, answered without h3 (about twice
 * the requests per second; see /docs/operations/benchmarks). Anything else — no or unknown token,
 * a refusal, a stale reading, HEAD — goes to the route in agents.ts, which gives the same answer.
 */
export function agentStandingHotRoute({
  monitor,
  tokenOwners,
  standingJson,
  service,
  log,
}: {
  monitor: ServiceStateMonitor;
  tokenOwners: TokenOwnerCache;
  /** The standing as JSON, the same bytes the app's route sends (AgentService.standingJson). */
  standingJson: (owner: TokenOwner) => string;
  service: ServiceSettings;
  log: Logger;
}): [string, HotRoute] {
  const operation = findOperation("getAgentStanding");
  const route: HotRoute = (request, response) => {
    if (request.method !== "GET") return false;
    const state = monitor.peek();
    if (!state || !isOperationAvailable(operation, state, service)) return false;
    const headers = hotHeaders(request);
    if (!headers) return false;
    const owner = ownerInMemory(headers.authorization ?? undefined, tokenOwners, null);
    if (!owner) return false;
    const started = performance.now();
    const requestId = requestIdFrom(headers["x-request-id"]);
    const coded = codeDynamicBody(responseHeaders("application/json", requestId), standingJson(owner), {
      method: "GET",
      acceptEncoding: headers["accept-encoding"],
    });
    writeWholeResponse(response, 200, coded.headers, coded.body);
    logRequestLine(log, "info", {
      requestId,
      method: "GET",
      path: operation.path,
      status: 200,
      ms: performance.now() - started,
    });
    return true;
  };
  return [operation.path, route];
}
