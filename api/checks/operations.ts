import { defineOperation, type FindCall } from "../platform/operations/definition.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { CheckPayments } from "./payments.ts";
import type { ChecksService } from "./service.ts";
import type { StoredReport } from "./sql/reports.ts";

/** The readiness-check operations' work; the registry says how often, with what body, and when they are open. */
export function checkOperations(checks: ChecksService, payments: CheckPayments) {
  const report = async ({ params }: Pick<FindCall<"getCheck">, "params">): Promise<StoredReport> => {
    const stored = await checks.find(params.id ?? "");
    if (!stored)
      throw new ApiProblem("not-found", "No such report. The report's URL is the only way to it: check the id.");
    return stored;
  };
  return {
    run: defineOperation("runCheck", {
      // The free checks a day are charged only once the target is accepted: a refused one costs nothing.
      run: ({ body, charge }) => checks.run(body, () => charge("checks-daily")),
    }),
    read: defineOperation("getCheck", { find: report, run: ({ found }) => checks.view(found) }),
    checkout: defineOperation("checkoutCheck", {
      find: report,
      run: ({ found, body }) => payments.start(found, body),
    }),
    redeem: defineOperation("redeemCredit", {
      find: report,
      run: ({ found, body }) => checks.redeem(found, body.code),
    }),
  };
}

export type CheckOperations = ReturnType<typeof checkOperations>;
