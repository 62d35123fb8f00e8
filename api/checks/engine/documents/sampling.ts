import type { ScanResponse } from "../fetch/fetcher.ts";
import { isSiteFault, ScanFetchError } from "../fetch/scan-fetch-error.ts";
import type { DocumentContext } from "./document.ts";

export interface Sample<T> {
  answered: Array<{ target: T; url: string; response: ScanResponse }>;
  /** Not asked: the sampling share of the request budget was spent. */
  skipped: T[];
  /** Asked, but no response came back (network, timeout, refused). */
  failures: Array<{ target: T; url: string; error: ScanFetchError }>;
}

/**
 * Resolves up to `limit` link targets, those the scan already fetched first (they cost nothing). Samples may not use
 * the end of the request budget, which essential fetches keep; a target left out that way is "skipped", not an error.
 */
export async function sampleTargets<T>(
  context: DocumentContext,
  targets: readonly T[],
  options: { url: (target: T) => string; limit: number; accept?: (target: T) => string },
): Promise<Sample<T>> {
  const unique = [...new Map(targets.map((target) => [options.url(target), target])).entries()];
  const ordered = [
    ...unique.filter(([url]) => context.trail.hasFetched(url)),
    ...unique.filter(([url]) => !context.trail.hasFetched(url)),
  ].slice(0, options.limit);
  const sample: Sample<T> = { answered: [], skipped: [], failures: [] };
  await Promise.all(
    ordered.map(async ([url, target]) => {
      try {
        const accept = options.accept?.(target);
        sample.answered.push({
          target,
          url,
          response: await context.trail.resolve(url, { sample: true, ...(accept === undefined ? {} : { accept }) }),
        });
      } catch (error) {
        if (!(error instanceof ScanFetchError)) throw error;
        if (error.kind === "request-budget") sample.skipped.push(target);
        else sample.failures.push({ target, url, error });
      }
    }),
  );
  const order = new Map(ordered.map(([url], index) => [url, index]));
  sample.answered.sort((left, right) => (order.get(left.url) ?? 0) - (order.get(right.url) ?? 0));
  return sample;
}

/** " (N not checked: request budget)" or "". */
export function skippedNote(skipped: number, total?: number): string {
  const capped = total !== undefined && total > 0 ? ` of ${total}` : "";
  return skipped === 0 ? "" : ` (${skipped}${capped} not checked to stay within the request budget)`;
}

/**
 * Targets that did not answer because of the site (a host that does not resolve, a private address, a hang, a reset):
 * they are dead links, judged like a 404, each as "<path>: <why>".
 */
export function deadFailures<T>(sample: Sample<T>): string[] {
  return sample.failures
    .filter((failure) => isSiteFault(failure.error))
    .map((failure) => `${describeTarget(failure.url)}: ${failure.error.message.replace(/^refused \S+: /, "")}`);
}

/** A path on the checked site, or the whole URL elsewhere. */
function describeTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

/**
 * Why a sample cannot support a verdict: a target the scanner could not ask (its budget, a 429), or nothing checked at
 * all. The caller reports what the answered and dead targets prove first, then throws this (`error`).
 */
export function sampleBlocker<T>(sample: Sample<T>): ScanFetchError | null {
  const failure = sample.failures.find((item) => !isSiteFault(item.error));
  if (failure !== undefined) return failure.error;
  if (sample.answered.length === 0 && sample.skipped.length > 0) {
    return new ScanFetchError("request-budget", "no target could be checked within the scan's request budget", "");
  }
  return null;
}
