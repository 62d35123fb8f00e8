import { operationUnavailability } from "../../src/lib/discovery/state.ts";
import { findOperation } from "../../src/lib/registry.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { ApiProblem } from "./problem.ts";
import type { ServiceStateMonitor } from "./state/service-state.ts";

/**
 * Refuses an operation that cannot work now: not published (404), switched off by staff
 * (503 form-closed), or a component it needs is down (503 with Retry-After). The same rule drops
 * the operation from every discovery document.
 */
export async function requireAvailable(
  operationId: string,
  monitor: ServiceStateMonitor,
  service: ServiceSettings,
): Promise<void> {
  const operation = findOperation(operationId);
  const why = operationUnavailability(operation, await monitor.current(), service);
  if (!why) return;
  if (why.kind === "unpublished") throw new ApiProblem("not-found", "This is not published.");
  if (why.kind === "switched-off") {
    throw new ApiProblem("form-closed", `This is closed for now (${why.reason}). /api/v1/config shows what is open.`, {
      headers: { "Retry-After": "3600" },
    });
  }
  const detail =
    why.component === "payments"
      ? "Payments are not configured on this server."
      : `The ${why.component} is unavailable; /status.json shows the details.`;
  throw new ApiProblem("service-unavailable", detail, {
    headers: { "Retry-After": why.component === "payments" ? "3600" : "30" },
  });
}
