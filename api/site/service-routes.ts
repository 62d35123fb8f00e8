import type { H3 } from "h3";
import { currentPolicyVersions } from "../../src/lib/discovery/documents.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../../src/lib/switches.ts";
import { onGet } from "../platform/http/get-route.ts";
import { jsonResponse } from "../platform/http/responses.ts";
import type { RouteDeps } from "../platform/route-deps.ts";

/** Status and public configuration: always answered, whatever is down (they say what is). */
export function registerServiceRoutes(app: H3, { services }: RouteDeps): void {
  const versions = currentPolicyVersions(services.content);

  onGet(app, "/status.json", async (event) => {
    const state = await services.monitor.current();
    const degraded = Object.values(state.components).includes("unavailable");
    return jsonResponse(event, {
      status: degraded ? "degraded" : "ok",
      checked_at: state.checkedAt,
      components: { api: "ok", ...state.components },
    });
  });

  onGet(app, "/api/v1/config", async (event) => {
    const { switches, checkedAt } = await services.monitor.current();
    return jsonResponse(event, {
      forms: Object.fromEntries(FORM_SWITCHES.map((name) => [name, switches[name]])),
      features: Object.fromEntries(FEATURE_SWITCHES.map((name) => [name, switches[name]])),
      ...versions,
      checked_at: checkedAt,
    });
  });
}
