import { inertLine, sarifText } from "../../../src/lib/site-text.ts";
import { absolute } from "../../../src/lib/urls.ts";
import type { CheckDetail, CheckStatus, Finding, ReadinessSummary } from "../../../src/schemas/report.ts";
import { CHECK_SUITE } from "../engine/suite/registry.ts";

export const SARIF_MEDIA_TYPE = "application/sarif+json";
/** Where OASIS publishes the schema of SARIF 2.1.0 (errata 01); the log names it in `$schema`. */
export const SARIF_SCHEMA_URL =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

type SarifLevel = "error" | "warning" | "note";

/** The parts of SARIF 2.1.0 this log uses (OASIS SARIF 2.1.0 §3). */
export interface SarifLog {
  $schema: string;
  version: "2.1.0";
  runs: [SarifRun];
}

interface SarifMessage {
  text: string;
}

interface SarifRule {
  id: string;
  shortDescription: SarifMessage;
  help: SarifMessage;
  helpUri?: string;
  properties: { category: string; severity: string };
}

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: SarifMessage;
  locations: [{ physicalLocation: { artifactLocation: { uri: string } } }];
  properties: { status: string; severity: string; clauses?: CheckDetail["clauses"] };
}

interface SarifRun {
  tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
  invocations: [{ executionSuccessful: boolean; startTimeUtc: string; endTimeUtc: string }];
  results: SarifResult[];
  properties: Record<string, unknown>;
}

/**
 * A status as a SARIF `level` (§3.27.10): a fail is an error, a warn a warning; pass and n/a are no result; any other
 * status (the scanner's own `error`, or an outcome a later suite adds) is a note, so a new status never turns into an
 * error a CI gate would fail on, nor disappears.
 */
export function sarifLevel(status: CheckStatus | string): SarifLevel | null {
  if (status === "pass" || status === "n/a") return null;
  if (status === "fail") return "error";
  if (status === "warn") return "warning";
  return "note";
}

export interface SarifOptions {
  toolName: string;
  /** The docs page that explains the checks. */
  informationUri: string;
  /**
   * Set for a locked report: the page where it is unlocked. The log then holds only what the free summary shows:
   * no remediation and no evidence (each result is located at the site's origin, not at the document judged).
   */
  unlockUrl?: string;
}

const SPEC_URLS = new Map(CHECK_SUITE.map((check) => [check.id, check.specUrls[0]]));

function rule(finding: Finding, detail: CheckDetail | undefined, options: SarifOptions): SarifRule {
  const helpUri = detail?.spec_urls[0] ?? SPEC_URLS.get(finding.id);
  const help =
    options.unlockUrl === undefined
      ? (detail?.remediation ?? finding.message)
      : `The remediation is in the unlocked report: ${options.unlockUrl}`;
  return {
    id: finding.id,
    shortDescription: { text: inertLine(finding.title) },
    help: { text: inertLine(help) },
    ...(helpUri === undefined ? {} : { helpUri }),
    properties: { category: finding.category, severity: finding.severity },
  };
}

/**
 * A readiness report as a SARIF 2.1.0 log: one rule per stable check id (its title, the remediation as help, the
 * specification it rests on as `helpUri`), and one result per check that did not pass and applied, located at the
 * URL the check judged. A locked report gives the free summary only (see `SarifOptions.unlockUrl`).
 */
export function toSarif(report: ReadinessSummary & { details?: CheckDetail[] }, options: SarifOptions): SarifLog {
  const locked = options.unlockUrl !== undefined;
  const details = new Map((locked ? [] : (report.details ?? [])).map((detail) => [detail.id, detail]));
  const rules = report.findings.map((finding) => rule(finding, details.get(finding.id), options));
  const results: SarifResult[] = [];
  report.findings.forEach((finding, ruleIndex) => {
    const level = sarifLevel(finding.status);
    if (level === null) return;
    const detail = details.get(finding.id);
    const uri = detail?.evidence[0]?.request.url ?? report.target.origin;
    results.push({
      ruleId: finding.id,
      ruleIndex,
      level,
      message: { text: sarifText(finding.message) },
      locations: [{ physicalLocation: { artifactLocation: { uri } } }],
      properties: {
        status: finding.status,
        severity: finding.severity,
        ...(detail && detail.clauses.length > 0 ? { clauses: detail.clauses } : {}),
      },
    });
  });
  const ended = new Date(Date.parse(report.checked_at) + report.duration_ms).toISOString();
  return {
    $schema: SARIF_SCHEMA_URL,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: options.toolName,
            version: report.suite_version,
            informationUri: options.informationUri,
            rules,
          },
        },
        invocations: [{ executionSuccessful: !report.incomplete, startTimeUtc: report.checked_at, endTimeUtc: ended }],
        results,
        properties: {
          target: report.target.origin,
          score: report.score.percent,
          level: report.level.value,
          incomplete: report.incomplete,
          locked,
          ...(locked ? { unlock: options.unlockUrl } : {}),
        },
      },
    ],
  };
}

/** How a SARIF log names the checker: the same from the command line and from the API. */
export function sarifTool(config: { docsUrl: string }): Pick<SarifOptions, "toolName" | "informationUri"> {
  return { toolName: "AgentReady readiness checker", informationUri: absolute(config.docsUrl, "/docs/checks") };
}
