import { boundedMessage } from "../../../src/lib/site-text.ts";
import type { BlockedSummary, BlockingSignal, Finding } from "../../../src/schemas/report.ts";
import type { CheckerSettings } from "./settings.ts";

const KIND_WORDS: Readonly<Record<BlockingSignal["kind"], string>> = {
  challenge: "a challenge or block page",
  "user-agent": "a 403 that a browser does not get",
  "rate-limit": "a 429 without a usable Retry-After",
  growing: "blocking that grew during the scan",
};

/**
 * What the report says when the site's bot protection kept checks from a verdict: how many, each way it answered, and
 * what to allow so that a new scan can judge the site. Null when nothing was blocked.
 */
export function summarizeBlocking(
  findings: readonly Pick<Finding, "status">[],
  signals: readonly BlockingSignal[],
  settings: Pick<CheckerSettings, "userAgent" | "limits" | "signer" | "keyDirectory">,
): BlockedSummary | null {
  const { userAgent, limits } = settings;
  const checks = findings.filter((finding) => finding.status === "blocked").length;
  if (checks === 0 || signals.length === 0) return null;
  const paths = [...new Set(signals.map((signal) => new URL(signal.url).pathname))];
  const kinds = [...new Set(signals.map((signal) => KIND_WORDS[signal.kind]))];
  const shown = paths.slice(0, 5).join(", ") + (paths.length > 5 ? ` and ${paths.length - 5} more` : "");
  // A signature cannot be claimed by anyone else, a User-Agent can: name the signature first where requests carry one.
  const whom =
    settings.signer === null
      ? `the User-Agent "${userAgent}"`
      : `requests whose Web Bot Auth signature verifies with a key of our directory ${settings.keyDirectory} (their Signature-Agent header names it), or at least the User-Agent "${userAgent}",`;
  return {
    checks,
    signals: signals.map((signal) => ({ ...signal, detail: boundedMessage(signal.detail) })),
    allow:
      `Your bot protection answered our scanner with ${kinds.join(", ")}. Allow ${whom} ` +
      `(a WAF or bot-management skip rule for it) at least for ${shown}, and let it make up to ${limits.maxRequests} requests in ${limits.scanBudgetMs / 1000} s; ` +
      "then run the check again. Until then these checks say nothing about the site.",
  };
}
