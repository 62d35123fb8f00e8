import type { z } from "zod";
import { currentPolicyVersions } from "../../src/lib/discovery/documents.ts";
import { openSwitches } from "../../src/lib/discovery/state.ts";
import type { FormResult, PageServices, PublicConfig } from "../../src/lib/page-services.ts";
import type { OperationId } from "../../src/lib/registry.ts";
import { FEATURE_SWITCHES, FORM_SWITCHES } from "../../src/lib/switches.ts";
import { CheckCheckoutSchema } from "../../src/schemas/requests/checks.ts";
import { requireAvailable } from "../platform/availability.ts";
import { enforceRateLimit } from "../platform/limits/enforce.ts";
import type { OperationDefinition } from "../platform/operations/definition.ts";
import { type CallSource, invokeOperation } from "../platform/operations/prepare-call.ts";
import { ApiProblem } from "../platform/problem.ts";
import { validationProblem, violationsOf } from "../platform/violations.ts";
import type { AppServices } from "./app-services.ts";
import { checkFailureForPeople, fieldOf, type PeopleFailure, waitlistFailureForPeople } from "./page-words.ts";

/**
 * Runs a form action with the same rules as the JSON API, returning a result the page can show.
 * `forPeople` words the failure for the form; without it the problem's own detail is shown.
 */
export async function asForm<T>(
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

/** A text field of a submitted form, or `""`. */
function textField(input: unknown, name: string): string {
  if (typeof input !== "object" || input === null || !(name in input)) return "";
  const value: unknown = Reflect.get(input, name);
  return typeof value === "string" ? value : "";
}

/** Validates a form's fields with the API's own schema; a failure names each field as the API would. */
export function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw validationProblem(violationsOf(parsed.error));
  return parsed.data;
}

/** The services one page request may use, bound to the client's address for rate limits. */
export function pageServicesFor(services: AppServices, address: string): PageServices {
  const versions = currentPolicyVersions(services.content);
  const { operations, operationDeps } = services;
  /** A form is a third way to call an operation: the registry's limits, switches and body schema apply. */
  const submit = <Id extends OperationId, Found, Result>(
    definition: OperationDefinition<Id, Found, Result>,
    input: unknown,
    params: Record<string, string> = {},
  ): Promise<Result> => {
    const source: CallSource = {
      address,
      headers: new Headers(),
      params,
      readBody: async (schema) => parseForm(schema, input),
    };
    return invokeOperation(definition, source, operationDeps);
  };
  return {
    async config(): Promise<PublicConfig> {
      const open = openSwitches(await services.monitor.current(), services.content.service);
      return {
        forms: Object.fromEntries(FORM_SWITCHES.map((name) => [name, open[name]])) as PublicConfig["forms"],
        features: Object.fromEntries(FEATURE_SWITCHES.map((name) => [name, open[name]])) as PublicConfig["features"],
        ...versions,
      };
    },
    joinWaitlist: (input) =>
      asForm(
        async () => ({ legend: (await submit(operations.waitlists.join, input)).legend }),
        (problem) => waitlistFailureForPeople(problem, { email: textField(input, "email") }),
      ),
    runCheck: (input) =>
      asForm(
        async () => ({ id: (await submit(operations.checks.run, input)).id }),
        (problem) => checkFailureForPeople(problem, { domain: textField(input, "domain") }),
      ),
    async readReport(id) {
      const stored = await services.checks.find(id);
      return stored ? services.checks.view(stored) : null;
    },
    redeemCode: (id, code) =>
      asForm(async () => {
        const redeemed = await submit(operations.checks.redeem, { code }, { id });
        return { credits_remaining: redeemed.credits_remaining };
      }),
    payForReport: (id, input) =>
      asForm(async () => {
        // People pay on the provider's hosted page: the same operation's rules, a different result.
        await requireAvailable("checkoutCheck", services.monitor, services.content.service);
        await enforceRateLimit(services.limiter, "check-payments", address);
        const stored = await services.checks.find(id);
        if (!stored) throw new ApiProblem("not-found", "No such report.");
        return services.checkPayments.startHosted(stored, parseForm(CheckCheckoutSchema, input));
      }),
    confirmReportPayment: (id, sessionId) => services.checkPayments.confirmHosted(id, sessionId),
    startCheckout: (productId) =>
      asForm(async () => ({ url: (await submit(operations.store.checkout, {}, { id: productId })).url })),
    purchaseSession: (sessionId) =>
      asForm(() => submit(operations.store.session, undefined, { session_id: sessionId })),
    purchaseReceipt: (sessionId) => services.store.sessions.receipt(sessionId),
    requestMonitor: (input) =>
      asForm(async () => ({ detail: (await submit(operations.monitors.request, input)).detail })),
    async readMonitor(id, compare) {
      const monitor = await services.monitors.find(id);
      return monitor ? services.monitors.page(monitor, compare) : null;
    },
    async previewMonitorLink(purpose, token) {
      const monitor = await services.monitors.fromLink(purpose, token);
      return monitor ? { domain: monitor.host, frequency: monitor.frequency, state: monitor.state } : null;
    },
    followMonitorLink: (purpose, token) =>
      asForm(() =>
        purpose === "confirm"
          ? submit(operations.monitors.confirm, { token })
          : submit(operations.monitors.unsubscribe, { token }),
      ),
  };
}
