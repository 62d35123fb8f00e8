import type { z } from "zod";
import { currentPolicyVersions } from "../src/lib/discovery/documents.ts";
import type { FormResult, PageServices, PublicConfig } from "../src/lib/page-services.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../src/lib/switches.ts";
import { CheckCheckoutSchema, CheckInputSchema } from "../src/schemas/requests/checks.ts";
import { WaitlistSignupSchema } from "../src/schemas/requests/waitlist.ts";
import type { AppServices } from "./app-services.ts";
import { checkFailureForPeople, fieldOf, type PeopleFailure, waitlistFailureForPeople } from "./page-words.ts";
import { requireAvailable } from "./platform/availability.ts";
import { violationsOf } from "./platform/body.ts";
import { enforceRateLimit } from "./platform/limits/enforce.ts";
import { ApiProblem } from "./platform/problem.ts";
import { storePageServices } from "./store/page-services.ts";

/**
 * Runs a form action with the same rules as the JSON API, returning a result the page can show.
 * `forPeople` words the failure for the form; without it the problem's own detail is shown.
 */
async function asForm<T>(
  action: () => Promise<T>,
  forPeople?: (problem: ApiProblem) => PeopleFailure,
): Promise<FormResult<T>> {
  try {
    return { ok: true, value: await action() };
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    if (forPeople) return { ok: false, status: error.status, ...forPeople(error) };
    const message = error.code === "validation-failed" ? "Please fix the fields below." : error.detail;
    const errors = (error.options.errors ?? []).map((violation) => ({
      field: fieldOf(violation.pointer),
      message: violation.detail,
    }));
    return { ok: false, status: error.status, message, errors };
  }
}

/** Validates a form's fields with the API's own schema; a failure names each field as the API would. */
function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ApiProblem("validation-failed", "invalid", { errors: violationsOf(parsed.error) });
  return parsed.data;
}

/** A text field of a submitted form, or `""`. */
function textField(input: unknown, name: string): string {
  if (typeof input !== "object" || input === null || !(name in input)) return "";
  const value: unknown = Reflect.get(input, name);
  return typeof value === "string" ? value : "";
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
      asForm(
        async () => {
          await requireAvailable("joinWaitlist", services.monitor, services.content.service);
          await enforceRateLimit(services.limiter, "waitlist", address);
          const { legend } = await services.waitlist.join(parseForm(WaitlistSignupSchema, input));
          return { legend };
        },
        (problem) => waitlistFailureForPeople(problem, { email: textField(input, "email") }),
      ),
    runCheck: (input) =>
      asForm(
        async () => {
          await requireAvailable("runCheck", services.monitor, services.content.service);
          await enforceRateLimit(services.limiter, "checks", address, "checks-daily");
          const report = await services.checks.run(parseForm(CheckInputSchema, input));
          return { id: report.id };
        },
        (problem) => checkFailureForPeople(problem, { domain: textField(input, "domain") }),
      ),
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
