import { randomUUID } from "node:crypto";
import { absolute } from "../../src/lib/urls.ts";
import { ProfileSchema, type ReadinessResult } from "../../src/schemas/report.ts";
import { type CheckInput, CREDIT_CODE_SHAPE } from "../../src/schemas/requests/checks.ts";
import type { CheckReport, WatchOffer } from "../../src/schemas/responses/checks.ts";
import type { PricingFile } from "../../src/schemas/service.ts";
import type { Sql } from "../db/sql.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import { ApiProblem } from "../platform/problem.ts";
import type { SecretRing } from "../platform/secret-ring.ts";
import { creditCodeHashes, generateCreditCode, hashCreditCode, normaliseCreditCode } from "./credit-codes.ts";
import { TargetNotAllowedError } from "./engine/fetch/address-guard.ts";
import { parseTarget } from "./engine/fetch/target.ts";
import { renderMarkdownReport } from "./engine/render-markdown.ts";
import { type RunReadinessCheckOptions, runReadinessCheck } from "./engine/run-check.ts";
import { type CheckerSettings, isAllowListed } from "./engine/settings.ts";
import { type SarifLog, sarifTool, toSarif } from "./formats/sarif.ts";
import { renderLockedMarkdown } from "./locked-report.ts";
import { findStoredCodeHash, insertCreditCode, type Redemption, redeemCredit } from "./sql/credits.ts";
import { findReport, insertReport, type StoredReport } from "./sql/reports.ts";
import { watchMarkdown, watchOffer } from "./watch.ts";

export interface ChecksServiceDeps {
  db: () => Sql;
  now: () => Date;
  settings: CheckerSettings;
  siteUrl: string;
  docsUrl: string;
  pricing: PricingFile["checks"];
  secrets: SecretRing;
  /** Reports are stored under their id's keyed hash: the id is the report's link, a credential. */
  keys: LookupKeys;
  /** Whether paying and redeeming work right now (switches, payment provider). */
  unlockPaths: () => Promise<{ checkout: boolean; redeem: boolean }>;
  /** Whether an agent may create a monitor now (the checks switch, the database): the report's `watch` says so. */
  monitorsOpen: () => Promise<boolean>;
  /** Tests point the checker's DNS at fixture names. */
  lookup?: RunReadinessCheckOptions["lookup"];
  /** The instance's browser, for scans that ask to render (`render: true`); absent where no check runs (issuing codes). */
  renderer?: NonNullable<RunReadinessCheckOptions["renderer"]>;
}

/** Where no browser was given, a scan that asks to render is told so, and its static report stands. */
const NO_RENDERER: NonNullable<RunReadinessCheckOptions["renderer"]> = {
  render: async () => ({
    status: "unavailable",
    note: "not rendered: this process has no browser; the static report stands",
  }),
};

export const reportPath = (id: string) => `/checks/${id}`;

/** A target the checker refuses is the client's mistake: 422 `target-not-allowed`, pointing at `domain`. */
async function refusedAsProblem<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (error) {
    if (!(error instanceof TargetNotAllowedError)) throw error;
    throw new ApiProblem("target-not-allowed", error.message, {
      errors: [{ pointer: "#/domain", detail: error.message }],
      cause: error,
    });
  }
}
export const reportApiPath = (id: string) => `/api/v1/checks/${id}`;

/** Readiness checks as the API offers them: run and store a report, read it locked or unlocked, unlock it with a credit. */
export class ChecksService {
  private readonly deps: ChecksServiceDeps;

  constructor(deps: ChecksServiceDeps) {
    this.deps = deps;
  }

  /** Runs a check and stores the full result; answers with the locked summary. 422 for a target the checker may not reach. */
  async run(input: CheckInput, admit?: () => Promise<void>): Promise<CheckReport> {
    const profile = input.profile === undefined ? undefined : ProfileSchema.array().parse([input.profile].flat());
    const result: ReadinessResult = await refusedAsProblem(() =>
      runReadinessCheck({
        target: input.domain,
        ...(profile ? { profile } : {}),
        settings: this.deps.settings,
        now: this.deps.now,
        ...(this.deps.lookup ? { lookup: this.deps.lookup } : {}),
        ...(admit ? { admit } : {}),
        ...(input.render === true ? { renderer: this.deps.renderer ?? NO_RENDERER } : {}),
      }),
    );
    const id = randomUUID();
    const { details: _hiddenUntilUnlocked, ...summary } = result;
    const stored: StoredReport = {
      id,
      key: this.deps.keys.hash("report", id),
      summary,
      details: null,
      created_at: this.deps.now().toISOString(),
      unlocked_at: null,
      unlock_source: null,
    };
    await insertReport(this.deps.db(), stored.key, result, stored.created_at);
    return this.view(stored);
  }

  /** The longest one check may take: its whole-scan budget. */
  get budgetMs(): number {
    return this.deps.settings.limits.scanBudgetMs;
  }

  /**
   * The origin a check of `domain` would reach, vetted as a check vets it (422 for a refused target),
   * and whether CHECKS_ALLOWED_TARGETS let it through; sends nothing.
   */
  async target(domain: string): Promise<{ origin: string; allowListed: boolean }> {
    const lookup = this.deps.lookup ? { lookup: this.deps.lookup } : {};
    const { origin, allowListed } = await refusedAsProblem(() => parseTarget(domain, this.deps.settings, lookup));
    return { origin, allowListed };
  }

  /** Whether `host` (`host[:port]`) is a CHECKS_ALLOWED_TARGETS entry's, over either scheme: local work only. */
  isAllowListedHost(host: string): boolean {
    return ["http", "https"].some((scheme) => {
      const url = URL.parse(`${scheme}://${host}/`);
      return url !== null && isAllowListed(url, this.deps.settings);
    });
  }

  async find(id: string): Promise<StoredReport | null> {
    // A UUID is case-insensitive (RFC 9562 §4); reports are stored with the lower-case form.
    const normalised = id.toLowerCase();
    return /^[0-9a-f-]{36}$/.test(normalised)
      ? findReport(this.deps.db(), this.deps.keys.hash("report", normalised), normalised)
      : null;
  }

  /** The report as the API shows it: the summary, and the details once unlocked. */
  async view(stored: StoredReport): Promise<CheckReport> {
    const locked = stored.unlocked_at === null;
    return {
      id: stored.id,
      url: absolute(this.deps.docsUrl, reportPath(stored.id)),
      locked,
      unlocked_at: stored.unlocked_at,
      ...stored.summary,
      ...(locked ? {} : { details: stored.details ?? [] }),
      unlock: locked ? await this.#offers(stored.id) : null,
      watch: await this.#watch(stored),
    };
  }

  /** For agents: the fix list with prompts once unlocked; the summary and how to unlock before. */
  async markdown(stored: StoredReport): Promise<string> {
    const report =
      stored.unlocked_at !== null
        ? renderMarkdownReport({ ...stored.summary, details: stored.details ?? [] })
        : renderLockedMarkdown(
            stored.summary,
            await this.#offers(stored.id),
            absolute(this.deps.docsUrl, reportPath(stored.id)),
          );
    return `${report}\n${watchMarkdown(await this.#watch(stored))}`;
  }

  /** How to watch the report's site, as monitors would take it right now. */
  async #watch(stored: StoredReport): Promise<WatchOffer> {
    return watchOffer(this.deps, stored.summary, await this.deps.monitorsOpen());
  }

  /** The report as a SARIF 2.1.0 log: in full once unlocked; before, only what the free summary shows. */
  sarif(stored: StoredReport): SarifLog {
    const tool = sarifTool(this.deps);
    if (stored.unlocked_at !== null) return toSarif({ ...stored.summary, details: stored.details ?? [] }, tool);
    return toSarif(stored.summary, { ...tool, unlockUrl: absolute(this.deps.docsUrl, reportPath(stored.id)) });
  }

  async #offers(id: string): Promise<NonNullable<CheckReport["unlock"]>> {
    const paths = await this.deps.unlockPaths();
    const { pricing } = this.deps;
    return {
      price: pricing.unlock,
      packs: pricing.packs.map((pack) => ({
        id: pack.id,
        title: pack.title,
        credits: pack.credits,
        price: pack.price,
      })),
      checkout: paths.checkout ? absolute(this.deps.siteUrl, `${reportApiPath(id)}/checkout`) : null,
      redeem: paths.redeem ? absolute(this.deps.siteUrl, `${reportApiPath(id)}/redeem`) : null,
    };
  }

  /** Spends one credit of `code` on the report. 422 for a malformed or unknown code, 409 when nothing is left to do. */
  async redeem(
    report: Pick<StoredReport, "id" | "key">,
    code: string,
  ): Promise<{ id: string; unlocked: true; credits_remaining: number }> {
    const { id } = report;
    const checked = normaliseCreditCode(code);
    if (!checked.ok) {
      const detail =
        checked.reason === "check-symbol"
          ? "this code's check character does not match: a character may be mistyped"
          : CREDIT_CODE_SHAPE;
      throw new ApiProblem("invalid-credit-code", `This is not a valid credit code: ${detail}.`, {
        errors: [{ pointer: "#/code", detail }],
      });
    }
    const redemption = await this.#spend(checked.normalised, report.key);
    switch (redemption.outcome) {
      case "unlocked":
        return { id, unlocked: true, credits_remaining: redemption.creditsRemaining };
      case "unknown-code":
        throw new ApiProblem("invalid-credit-code", "No such credit code.", {
          errors: [{ pointer: "#/code", detail: "no such credit code" }],
        });
      case "already-unlocked":
        throw new ApiProblem("already-unlocked", "This report is already unlocked; no credit was spent.");
      case "no-credits-left":
        throw new ApiProblem("no-credits-left", "This credit code has no credits left; nothing was unlocked.");
    }
  }

  /**
   * Finds which key of the ring the code was issued under, then spends on that hash exactly as
   * before. With no previous keys there is one hash and no extra read.
   */
  async #spend(normalised: string, reportKey: string): Promise<Redemption> {
    const db = this.deps.db();
    const hashes = creditCodeHashes(this.deps.secrets, normalised);
    const codeHash = hashes.length === 1 ? hashes[0] : await findStoredCodeHash(db, hashes);
    if (!codeHash) return { outcome: "unknown-code" };
    return redeemCredit(db, codeHash, reportKey, this.deps.now().toISOString());
  }

  /** A new code of `credits` credits (by staff, or for a paid pack: then once per payment). `null` if that payment already made one. */
  async issueCode(
    credits: number,
    source: "staff" | "payment",
    sourceRef: string | null,
    email: string | null,
  ): Promise<{ id: string; code: string } | null> {
    const code = generateCreditCode();
    const checked = normaliseCreditCode(code);
    if (!checked.ok) throw new Error("generated an invalid credit code");
    const id = `cc_${randomUUID()}`;
    const inserted = await insertCreditCode(this.deps.db(), {
      id,
      codeHash: hashCreditCode(this.deps.secrets.current, checked.normalised),
      hint: checked.normalised.slice(-4),
      credits,
      source,
      sourceRef,
      email,
      at: this.deps.now().toISOString(),
    });
    return inserted ? { id, code } : null;
  }
}
