import { defineCommand } from "citty";
import { creditCodeHashes, normaliseCreditCode } from "../../api/checks/credit-codes.ts";
import { checkerSettingsFromConfig } from "../../api/checks/engine/settings.ts";
import { ChecksService } from "../../api/checks/service.ts";
import { creditLedger, findCreditCode, revokeCreditCode } from "../../api/checks/sql/credits.ts";
import { getContent } from "../../src/content/load-content.ts";
import { EmailSchema } from "../../src/schemas/common.ts";
import { type AdminContext, AdminError, printRows, withDatabase } from "./context.ts";
import { say, sayJson } from "./terminal.ts";

/** A code given by id (cc_…) or by the code itself. */
async function resolveCode({ client, secrets }: AdminContext, reference: string) {
  if (reference.startsWith("cc_")) return findCreditCode(client, { id: reference });
  const checked = normaliseCreditCode(reference);
  if (!checked.ok) throw new AdminError(`${reference} is neither a code id (cc_…) nor a valid credit code`);
  return findCreditCode(client, {
    hashes: creditCodeHashes(await secrets(), checked.normalised),
  });
}

export const creditsCommand = defineCommand({
  meta: {
    name: "credits",
    description: "Credit codes for readiness reports: issue a pack by hand, show balance and ledger, revoke.",
  },
  subCommands: {
    issue: defineCommand({
      meta: {
        name: "issue",
        description: "Issue a code with N credits (e.g. a refund or a goodwill pack). The code is shown once.",
      },
      args: {
        credits: { type: "positional", description: "How many credits", required: true },
        email: { type: "string", description: "Who it is for (kept with the code)" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client, config, secrets, lookupKeys }) => {
          const credits = Number(args.credits);
          if (!Number.isInteger(credits) || credits < 1 || credits > 10_000)
            throw new AdminError("Credits must be a whole number from 1 to 10000");
          // The same rule as the API's e-mail fields: no control characters reach the database or a terminal.
          const email = args.email === undefined ? null : EmailSchema.safeParse(args.email);
          if (email && !email.success)
            throw new AdminError(`--email ${email.error.issues[0]?.message ?? "is invalid"}`);
          const content = getContent(config.root);
          const service = new ChecksService({
            db: () => client,
            now: () => new Date(),
            // Issuing a code runs no check, so nothing is signed.
            settings: checkerSettingsFromConfig(config, null),
            siteUrl: config.siteUrl,
            docsUrl: config.docsUrl,
            pricing: content.pricing.checks,
            secrets: await secrets(),
            keys: await lookupKeys(),
            unlockPaths: async () => ({ checkout: false, redeem: true }),
            // Issuing a code shows no report.
            monitorsOpen: async () => false,
          });
          const issued = await service.issueCode(credits, "staff", null, email?.data ?? null);
          if (!issued) throw new AdminError("The code could not be stored");
          say(
            `Code:    ${issued.code}\nId:      ${issued.id}\nCredits: ${credits}\n\nThe code is shown this once; it is stored only as an HMAC.`,
          );
        }),
    }),
    show: defineCommand({
      meta: { name: "show", description: "A code's balance and its ledger (by id or by the code itself)." },
      args: {
        code: { type: "positional", description: "cc_… id or the code", required: true },
        json: { type: "boolean", description: "Print JSON" },
      },
      run: ({ args }) =>
        withDatabase(async (context) => {
          const code = await resolveCode(context, args.code);
          if (!code) throw new AdminError("No such credit code");
          const ledger = await creditLedger(context.client, code.id);
          if (args.json) {
            sayJson({ ...code, ledger });
            return;
          }
          printRows([{ ...code, hint: `…${code.hint}` }], false);
          say("");
          printRows(ledger, false);
          say(
            `\nLedger total ${ledger.reduce((sum, entry) => sum + entry.delta, 0)} = credits remaining ${code.credits_remaining}.`,
          );
        }),
    }),
    revoke: defineCommand({
      meta: {
        name: "revoke",
        description: "Revoke a code: its remaining credits are removed (recorded in the ledger).",
      },
      args: { code: { type: "positional", description: "cc_… id or the code", required: true } },
      run: ({ args }) =>
        withDatabase(async (context) => {
          const code = await resolveCode(context, args.code);
          if (!code) throw new AdminError("No such credit code");
          if (!(await revokeCreditCode(context.client, code.id, new Date().toISOString())))
            throw new AdminError(`${code.id} was already revoked`);
          say(`Revoked ${code.id} (${code.credits_remaining} credit(s) removed).`);
        }),
    }),
  },
});
