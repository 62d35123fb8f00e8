import { operationUnavailability, type ServiceState, type Unavailability } from "../../src/lib/discovery/state.ts";
import { findOperation, type Operation, type OperationId } from "../../src/lib/registry.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { ApiProblem } from "./problem.ts";
import type { ServiceStateMonitor } from "./state/service-state.ts";

/**
 * The refusal of a payment operation on a server without STRIPE_SECRET_KEY. The service state gives
 * it first; the services that need the gateway give the same one if they are reached without it.
 */
export function paymentsNotConfigured(): ApiProblem {
  return new ApiProblem("service-unavailable", "Payments are not configured on this server.", {
    headers: { "Retry-After": "3600" },
  });
}

function problemFor(why: Unavailability): ApiProblem {
  if (why.kind === "unpublished") return new ApiProblem("not-found", "This is not published.");
  if (why.kind === "switched-off") {
    return new ApiProblem("form-closed", `This is closed for now (${why.reason}). /api/v1/config shows what is open.`, {
      headers: { "Retry-After": "3600" },
    });
  }
  if (why.component === "payments") return paymentsNotConfigured();
  return new ApiProblem("service-unavailable", `The ${why.component} is unavailable; /status.json shows the details.`, {
    headers: { "Retry-After": "30" },
  });
}

/**
 * Refuses an operation that is not published (404) or switched off by staff (503 form-closed); with
 * `components`, also one whose component is down (503 with Retry-After). The same rule drops the
 * operation from every discovery document.
 */
export function refuseUnavailable(
  operation: Operation,
  state: ServiceState,
  service: ServiceSettings,
  { components }: { components: boolean },
): void {
  const why = operationUnavailability(operation, state, service);
  if (why && (components || why.kind !== "component")) throw problemFor(why);
}

/** Every refusal at once, for callers with nothing to look up in between (MCP tools, pages). */
export async function requireAvailable(
  operationId: OperationId,
  monitor: ServiceStateMonitor,
  service: ServiceSettings,
): Promise<void> {
  refuseUnavailable(findOperation(operationId), await monitor.current(), service, { components: true });
}
