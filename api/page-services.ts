import type { z } from "zod";
import { currentPolicyVersions } from "../src/lib/discovery/documents.ts";
import type { FieldError, FormResult, PageServices, PublicConfig } from "../src/lib/page-services.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../src/lib/switches.ts";
import { CheckCheckoutSchema, CheckInputSchema } from "../src/schemas/requests/checks.ts";
import { WaitlistSignupSchema } from "../src/schemas/requests/waitlist.ts";
import type { AppServices } from "./app-services.ts";
import { requireAvailable } from "./platform/availability.ts";
import { violationsOf } from "./platform/body.ts";
import { enforceRateLimit } from "./platform/limits/enforce.ts";
import { ApiProblem, type Violation } from "./platform/problem.ts";
import { storePageServices } from "./store/page-services.ts";

/** `#/interests/2` → `interests`: the form field a violation belongs to. */
function fieldOf(pointer: string): string {
  return pointer.replace(/^#\/?/, "").split("/")[0] || "form";
}

function formFailure(
  status: number,
  message: string,
  violations: Violation[] = [],
): { ok: false; status: number; message: string; errors: FieldError[] } {
  return {
    ok: false,
    status,
    message,
    errors: violations.map((violation) => ({ field: fieldOf(violation.pointer), message: violation.detail })),
  };
}

/** Runs a form action with the same rules as the JSON API, returning a result the page can show. */
async function asForm<T>(action: () => Promise<T>): Promise<FormResult<T>> {
  try {
    return { ok: true, value: await action() };
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    const message = error.code === "validation-failed" ? "Please fix the fields below." : error.detail;
    return formFailure(error.status, message, error.options.errors ?? []);
  }
}

/** Validates a form's fields with the API's own schema; a failure names each field as the API would. */
function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ApiProblem("validation-failed", "invalid", { errors: violationsOf(parsed.error) });
  return parsed.data;
}

/** The services one page request may use, bound to the client's address for rate limits. */
export function pageServicesFor(services: AppServices, address: string): PageServices {
  const versions = currentPolicyVersions(services.content);
  return {
    async config(): Promise<PublicConfig> {
      const { switches } = await services.monitor.current();
      return {
        forms: Object.fromEntries(FORM_SWITCHES.map((name) => [name, switches[name]])) as PublicConfig["forms"],
        features: Object.fromEntries(
          FEATURE_SWITCHES.map((name) => [name, switches[name]]),
        ) as PublicConfig["features"],
        ...versions,
      };
    },
    joinWaitlist: (input) =>
      asForm(async () => {
        await requireAvailable("joinWaitlist", services.monitor, services.content.service);
        await enforceRateLimit(services.limiter, "waitlist", address);
        const { legend } = await services.waitlist.join(parseForm(WaitlistSignupSchema, input));
        return { legend };
      }),
    runCheck: (input) =>
      asForm(async () => {
        await requireAvailable("runCheck", services.monitor, services.content.service);
        await enforceRateLimit(services.limiter, "checks", address, "checks-daily");
        const report = await services.checks.run(parseForm(CheckInputSchema, input));
        return { id: report.id };
      }),
    async readReport(id) {
      const stored = await services.checks.find(id);
      return stored ? services.checks.view(stored) : null;
    },
    redeemCode: (id, code) =>
      asForm(async () => {
        await requireAvailable("redeemCredit", services.monitor, services.content.service);
        await enforceRateLimit(services.limiter, "check-payments", address);
        const redeemed = await services.checks.redeem(id, code);
        return { credits_remaining: redeemed.credits_remaining };
      }),
    payForReport: (id, input) =>
      asForm(async () => {
        await requireAvailable("checkoutCheck", services.monitor, services.content.service);
        await enforceRateLimit(services.limiter, "check-payments", address);
        const stored = await services.checks.find(id);
        if (!stored) throw new ApiProblem("not-found", "No such report.");
        return services.checkPayments.startHosted(stored, parseForm(CheckCheckoutSchema, input));
      }),
    confirmReportPayment: (id, sessionId) => services.checkPayments.confirmHosted(id, sessionId),
    ...storePageServices(services, address, asForm),
  };
}
