import type { ResolvedAddress } from "../../../../api/checks/engine/fetch/address-guard.ts";
import { type RunReadinessCheckOptions, runReadinessCheck } from "../../../../api/checks/engine/run-check.ts";
import { type CheckerLimits, defineCheckerSettings } from "../../../../api/checks/engine/settings.ts";
import type { CheckStatus, ReadinessResult } from "../../../../src/schemas/report.ts";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { type StaticDocument, startStaticSite } from "../../../fixtures/sites/static-site.ts";

/** No test may touch the internet: any name lookup is a bug in the test. */
export async function noDns(hostname: string): Promise<readonly ResolvedAddress[]> {
  throw new Error(`tests must not resolve ${hostname}`);
}

export function settingsFor(site: FixtureSite, limits: Partial<CheckerLimits> = {}) {
  return defineCheckerSettings({ allowedTargets: [site.hostPort], siteUrl: "https://agent-ready.test", limits });
}

export function checkSite(
  site: FixtureSite,
  options: Partial<RunReadinessCheckOptions> = {},
): Promise<ReadinessResult> {
  return runReadinessCheck({ target: site.origin, settings: settingsFor(site), lookup: noDns, ...options });
}

/** Serves exactly these documents, checks the site once and closes it (its origin is the result's `target.origin`). */
export async function checkStaticSite(
  documents: Readonly<Record<string, StaticDocument>>,
  options: Partial<RunReadinessCheckOptions> = {},
): Promise<ReadinessResult> {
  const site = await startStaticSite(documents);
  try {
    return await checkSite(site, options);
  } finally {
    await site.close();
  }
}

export function statusOf(result: ReadinessResult, id: string): CheckStatus {
  const finding = result.findings.find((item) => item.id === id);
  if (finding === undefined) throw new Error(`no finding ${id}`);
  return finding.status;
}

export function messageOf(result: ReadinessResult, id: string): string {
  return result.findings.find((item) => item.id === id)?.message ?? "";
}

/** Check ids grouped by status, for compact assertions. */
export function idsWith(result: ReadinessResult, status: CheckStatus): string[] {
  return result.findings.filter((finding) => finding.status === status).map((finding) => finding.id);
}
