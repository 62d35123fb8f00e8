import type { currentPolicyVersions } from "../../src/lib/discovery/documents.ts";
import { openSwitches } from "../../src/lib/discovery/state.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../../src/lib/switches.ts";
import type { ServiceSettings } from "../../src/schemas/service.ts";
import { defineOperation } from "../platform/operations/definition.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { ServiceStateMonitor } from "../platform/state/service-state.ts";

/** Liveness, status and the public configuration: always answered, whatever is down (they say what is). */
export function serviceRoutes(
  monitor: ServiceStateMonitor,
  service: ServiceSettings,
  versions: ReturnType<typeof currentPolicyVersions>,
): HttpRoute[] {
  const health = defineOperation("getHealth", { run: async () => ({ status: "ok" as const }) });
  const status = defineOperation("getStatus", {
    async run() {
      const state = await monitor.current();
      const degraded = Object.values(state.components).includes("unavailable");
      return {
        status: degraded ? "degraded" : "ok",
        checked_at: state.checkedAt,
        components: { api: "ok", ...state.components },
      };
    },
  });
  const config = defineOperation("getConfig", {
    async run() {
      const state = await monitor.current();
      const open = openSwitches(state, service);
      return {
        forms: Object.fromEntries(FORM_SWITCHES.map((name) => [name, open[name]])),
        features: Object.fromEntries(FEATURE_SWITCHES.map((name) => [name, open[name]])),
        ...versions,
        checked_at: state.checkedAt,
      };
    },
  });
  return [httpRoute(health), httpRoute(status), httpRoute(config)];
}
