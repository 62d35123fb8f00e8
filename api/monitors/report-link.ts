import { absolute } from "../../src/lib/urls.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { RunRow } from "./sql/runs.ts";

/**
 * A report's id opens its full report, so a run keeps it sealed under the lookup key (as a queued
 * e-mail does), never in plain text: the run's page and its alert open it to link the report.
 */
export function reportUrl(keys: Pick<LookupKeys, "open">, docsUrl: string, run: Pick<RunRow, "report_sealed">) {
  const id = run.report_sealed ? keys.open(run.report_sealed) : null;
  return id ? absolute(docsUrl, `/checks/${id}`) : null;
}
