import type { H3 } from "h3";
import { WaitlistSignupSchema } from "../../src/schemas/requests/waitlist.ts";
import { requireAvailable } from "../platform/availability.ts";
import { readJson } from "../platform/body.ts";
import { clientAddress } from "../platform/http/client.ts";
import { jsonResponse } from "../platform/http/responses.ts";
import { enforceRateLimit, rememberLimits } from "../platform/limits/enforce.ts";
import type { RouteDeps } from "../platform/route-deps.ts";

export function registerWaitlistRoutes(app: H3, { config, services }: RouteDeps): void {
  app.post("/api/v1/waitlist", async (event) => {
    await requireAvailable("joinWaitlist", services.monitor, services.content.service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(services.limiter, "waitlist", clientAddress(event, config.trustProxy)),
    );
    const signup = await readJson(event, WaitlistSignupSchema, { limitBytes: config.bodyLimitBytes });
    return jsonResponse(event, await services.waitlist.join(signup), { status: 202, headers: limits });
  });
}
