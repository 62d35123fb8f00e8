import { formatMoney } from "../../src/lib/money.ts";
import { markdownInline } from "../../src/lib/site-text.ts";
import type { ReadinessSummary } from "../../src/schemas/report.ts";
import type { CheckReport } from "../../src/schemas/responses/checks.ts";
import { describeBlockingMarkdown, describeCost, describeScore } from "./engine/render-markdown.ts";

/** A locked report for agents: the score, the level, one line per finding, and how to unlock the fixes. */
export function renderLockedMarkdown(
  result: ReadinessSummary,
  offers: NonNullable<CheckReport["unlock"]>,
  pageUrl: string,
): string {
  const score = describeScore(result);
  const failing = result.findings.filter((finding) => finding.status === "fail" || finding.status === "warn");
  const lines = [
    `# Readiness of ${result.target.origin}`,
    "",
    `> Score ${score}, level ${result.level.value} (${result.level.name}). Suite ${result.suite_version}, checked ${result.checked_at}. Report: ${pageUrl}`,
    "",
    ...(result.blocked === null ? [] : [...describeBlockingMarkdown(result), ""]),
    "## Findings",
    "",
    ...result.findings.map((finding) => {
      const cost = describeCost(finding);
      return `- **${finding.status}** \`${finding.id}\` ${finding.title}: ${markdownInline(finding.message)}${cost === "" ? "" : ` (${cost})`}`;
    }),
    "",
    "## Unlock the fixes",
    "",
    `The full report has the evidence for each check, the remediation and a copy-paste fix prompt for the ${failing.length} failing or warning check${failing.length === 1 ? "" : "s"}.`,
    "",
    `- Unlock this report: ${formatMoney(offers.price)}${offers.checkout ? ` (POST ${offers.checkout} with {"purchase":"unlock","email":…})` : " (payments are unavailable right now)"}`,
    ...offers.packs.map(
      (pack) => `- ${pack.title}: ${pack.credits} credits for ${formatMoney(pack.price)}; one unlocks this report`,
    ),
    ...(offers.redeem ? [`- Have a credit code? POST ${offers.redeem} with {"code":"XXXXX-XXXXX-XXXXX-XXXXX-C"}`] : []),
    "",
  ];
  return lines.join("\n");
}
