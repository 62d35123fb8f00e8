import { fileResponse } from "../platform/http/file-response.ts";
import { type HttpRoute, httpRoute } from "../platform/operations/http-routes.ts";
import type { StoreOperations } from "./operations.ts";

/** The store: hosted checkout, the purchase session, and the downloads (which answer HEAD too). */
export function storeRoutes(operations: StoreOperations): HttpRoute[] {
  return [
    httpRoute(operations.checkout, { location: (started) => `/api/v1/store/sessions/${started.id}` }),
    httpRoute(operations.session),
    httpRoute(operations.downloadBySession, {
      respond: (event, _call, file, headers) => fileResponse(event, file, headers),
    }),
    httpRoute(operations.downloadByLink, {
      respond: (event, _call, file, headers) => fileResponse(event, file, headers),
    }),
  ];
}
