import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { isWorthCompressing } from "../../src/lib/compression.ts";
import { isOperationAvailable, type ServiceState } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { requestLogger } from "../platform/access-log.ts";
import { ownerInMemory } from "../platform/auth/bearer.ts";
import type { StandingEpoch } from "../platform/auth/standing-epoch.ts";
import type { TokenOwner } from "../platform/auth/token-owner.ts";
import type { TokenOwnerCache } from "../platform/auth/token-owner-cache.ts";
import { requestIdFrom } from "../platform/http/request-id.ts";
import { responseHeaders } from "../platform/http/responses.ts";
import type { Logger } from "../platform/log.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";
import { type HotHeaders, type HotRoute, hotHeaders, PreparedResponse } from "./hot-routes.ts";

/** Stands in for the request id while an answer is prepared; never sent. */
const REQUEST_ID_SLOT = "\u0000request-id";
const JSON_TYPE = "application/json";

/**
 * `GET /api/v1/agents/me` for a token whose owner was read in the last second, while the service
 * state reading is fresh too: the busiest authenticated read, answered without h3 (0.56–0.70 of a
 * hello-world against 0.45–0.51 through h3; ./README.md). Anything else — no or unknown token, a
 * refusal, a stale reading, HEAD — goes to the route in api/agents/routes.ts, which gives the same answer.
 *
 * Everything that does not change between requests is worked out once and kept, all of it for
 * `npm run bench -- api` (≥ 0.6 of a hello-world): whether the operation is available, per state
 * reading; the whole answer, per owner reading (a new reading is a new object, so nothing outlives
 * it); the log line's method and path. An answer the client's `Accept-Encoding` could change (a
 * standing over the compression threshold, as a long multibyte name makes it) is left to the app.
 */
export function agentStandingHotRoute({
  monitor,
  tokenOwners,
  standingEpoch,
  standingJson,
  service,
  log,
}: {
  monitor: ServiceStateMonitor;
  tokenOwners: TokenOwnerCache;
  /** A cached owner answers only if no revocation came since its reading (standing-epoch.ts). */
  standingEpoch: StandingEpoch;
  /** The standing as JSON, the same bytes the app's route sends (AgentService.standingJson). */
  standingJson: (owner: TokenOwner) => string;
  service: ServiceSettings;
  log: Logger;
}): [string, HotRoute] {
  const operation = findOperation("getAgentStanding");
  const logRequest = requestLogger(log, "info", "GET", operation.path);
  let checkedState: ServiceState | undefined;
  let available = false;
  const answers = new WeakMap<TokenOwner, PreparedResponse | null>();
  const answerFor = (owner: TokenOwner): PreparedResponse | null => {
    let answer = answers.get(owner);
    if (answer === undefined) {
      const body = standingJson(owner);
      // A body the app would compress for some clients is coded per request there (codeDynamicBody);
      // any other goes out with exactly the headers the app gives it.
      answer = isWorthCompressing(JSON_TYPE, Buffer.byteLength(body))
        ? null
        : new PreparedResponse(200, responseHeaders(JSON_TYPE, REQUEST_ID_SLOT), body, REQUEST_ID_SLOT);
      answers.set(owner, answer);
    }
    return answer;
  };
  const answerAt = (response: ServerResponse, headers: HotHeaders, epoch: number): boolean => {
    const owner = ownerInMemory(headers.authorization ?? undefined, tokenOwners, null, epoch);
    if (!owner) return false;
    const answer = answerFor(owner);
    if (!answer) return false;
    const started = performance.now();
    const requestId = requestIdFrom(headers["x-request-id"]);
    answer.send(response, requestId);
    logRequest(requestId, 200, performance.now() - started);
    return true;
  };
  const route: HotRoute = (request, response, handOver) => {
    if (request.method !== "GET") return false;
    const state = monitor.peek();
    if (!state) return false;
    if (state !== checkedState) {
      checkedState = state;
      available = isOperationAvailable(operation, state, service);
    }
    if (!available) return false;
    const headers = hotHeaders(request);
    if (!headers) return false;
    const epoch = standingEpoch.current();
    if (typeof epoch === "number") return answerAt(response, headers, epoch);
    // The reading is too old to use (an idle instance): this request waits for a read begun now.
    epoch.then(
      (read) => answerAt(response, headers, read) || handOver(),
      () => handOver(),
    );
    return true;
  };
  return [operation.path, route];
}
