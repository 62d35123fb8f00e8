import type { H3 } from "h3";
import { CheckCheckoutSchema, CheckInputSchema, CheckRedeemSchema } from "../../src/schemas/requests/checks.ts";
import { requireAvailable } from "../platform/availability.ts";
import { readJson } from "../platform/body.ts";
import { prefersMarkdown } from "../platform/http/accept.ts";
import { clientAddress } from "../platform/http/client.ts";
import { onGet } from "../platform/http/get-route.ts";
import { completeResponse, jsonResponse } from "../platform/http/responses.ts";
import { enforceRateLimit, rememberLimits } from "../platform/limits/enforce.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { RouteDeps } from "../platform/route-deps.ts";

export function registerCheckRoutes(app: H3, { config, services }: RouteDeps): void {
  const { checks, checkPayments, limiter, monitor, content } = services;
  const service = content.service;
  const notFound = () =>
    new ApiProblem("not-found", "No such report. The report's URL is the only way to it: check the id.");

  app.post("/api/v1/checks", async (event) => {
    await requireAvailable("runCheck", monitor, service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(limiter, "checks", clientAddress(event, config.trustProxy), "checks-daily"),
    );
    const input = await readJson(event, CheckInputSchema, { limitBytes: config.bodyLimitBytes });
    return jsonResponse(event, await checks.run(input), { headers: limits });
  });

  onGet(app, "/api/v1/checks/:id", async (event) => {
    await requireAvailable("getCheck", monitor, service);
    const stored = await checks.find(event.context.params?.id ?? "");
    if (!stored) throw notFound();
    // One URL, two representations: JSON for programs, a Markdown fix list for agents that ask.
    if (prefersMarkdown(event.req.headers.get("accept"))) {
      return completeResponse(event, await checks.markdown(stored), {
        status: 200,
        type: "text/markdown; charset=utf-8",
        headers: { Vary: "Accept" },
      });
    }
    return jsonResponse(event, await checks.view(stored), { headers: { Vary: "Accept" } });
  });

  app.post("/api/v1/checks/:id/checkout", async (event) => {
    await requireAvailable("checkoutCheck", monitor, service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(limiter, "check-payments", clientAddress(event, config.trustProxy)),
    );
    const stored = await checks.find(event.context.params?.id ?? "");
    if (!stored) throw notFound();
    const input = await readJson(event, CheckCheckoutSchema, { limitBytes: config.bodyLimitBytes });
    return jsonResponse(event, await checkPayments.start(stored, input), { headers: limits });
  });

  app.post("/api/v1/checks/:id/redeem", async (event) => {
    await requireAvailable("redeemCredit", monitor, service);
    const limits = rememberLimits(
      event,
      await enforceRateLimit(limiter, "check-payments", clientAddress(event, config.trustProxy)),
    );
    const stored = await checks.find(event.context.params?.id ?? "");
    if (!stored) throw notFound();
    const { code } = await readJson(event, CheckRedeemSchema, { limitBytes: config.bodyLimitBytes });
    return jsonResponse(event, await checks.redeem(stored.id, code), { headers: limits });
  });
}
