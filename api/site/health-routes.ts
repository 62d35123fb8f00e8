import type { H3 } from "h3";
import { onGet } from "../platform/http/get-route.ts";
import { jsonResponse } from "../platform/http/responses.ts";

/** Liveness: answers while the process can answer, whatever its dependencies are doing. */
export function registerHealthRoutes(app: H3): void {
  onGet(app, "/health", (event) => jsonResponse(event, { status: "ok" }));
}
