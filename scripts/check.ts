import { parseArgs } from "node:util";
import { TargetNotAllowedError } from "../api/checks/engine/fetch/address-guard.ts";
import { SiteRenderer } from "../api/checks/engine/render/site-renderer.ts";
import { describeBlocking, describeScore, describeTally } from "../api/checks/engine/render-markdown.ts";
import { type CheckProgress, runReadinessCheck } from "../api/checks/engine/run-check.ts";
import { parseProfiles } from "../api/checks/engine/scoring.ts";
import { CheckerConfigurationError, checkerSettingsFromConfig } from "../api/checks/engine/settings.ts";
import { sarifTool, toSarif } from "../api/checks/formats/sarif.ts";
import { ConfigError, loadConfig } from "../api/config.ts";
import { filePath } from "../api/db/database-path.ts";
import { crawlerSigner } from "../api/platform/signing/request-signature.ts";
import { loadSigningKeys } from "../api/platform/signing/signing-keys.ts";
import { inertBlock } from "../src/lib/site-text.ts";
import type { Profile, ReadinessResult } from "../src/schemas/report.ts";
import { BaselineError, compareWithBaseline, formatComparison, readBaseline } from "./check/baseline.ts";
import { toJunit } from "./check/junit.ts";
import { unreachableReason } from "./check/unreachable.ts";

const USAGE = `Usage: npm run check -- <domain, host:port or URL> [--format text|json|junit|sarif] [--profile a,b]
                                       [--render] [--fail-under N] [--baseline old.json]

Checks one site for agent readiness and prints what passes, what fails and how to fix it.

  <domain, host:port or URL>  example.com or example.com:8443 (checked over https), or a URL whose origin is checked
  --format F         text (default); json, the full result (keep it as a later --baseline); junit, JUnit XML
                     for CI test reports; or sarif, SARIF 2.1.0 for code-scanning dashboards (one rule per
                     check, one result per fail or warn). json, junit and sarif go to stdout, the progress to stderr
  --json             the same as --format json
  --profile a,b      judge the site as these profiles instead of the inferred ones:
                     content, docs, api, agent, commerce, or all
  --render           also render the homepage, a path that cannot exist and one linked page in Chromium
                     (CHROMIUM_PATH, else /usr/bin/chromium), every browser request through the checker's
                     guard: what agents without JavaScript miss, WebMCP tools, accessibility tree, layout
                     shift. Without a browser it says so and the static report stands
  --fail-under N     exit 1 when the score is below N (0-100; default 0)
  --baseline FILE    compare with an earlier --json result and print the fixed, regressed and new findings.
                     A regression is a check whose verdict got worse (pass to warn or fail, warn to fail), or a
                     check that fails now and had no verdict in the baseline (absent, n/a or error); it exits 1.
                     n/a and error are not verdicts: a check that errors now is listed as not compared
  -h, --help         show this help

Exit codes: 0 every gate holds; 1 the score is below --fail-under, or a regression against the baseline;
2 the site could not be reached or scored, the report is incomplete (more than a quarter of the checks could not
reach a verdict, or the site's bot protection blocked any check), the target was refused, or the arguments or the
baseline are wrong.
Private targets (tests, local work) must be listed in CHECKS_ALLOWED_TARGETS=host:port,...`;

const FORMATS = ["text", "json", "junit", "sarif"] as const;
type Format = (typeof FORMATS)[number];

const STATUS_MARKS: Record<string, string> = {
  pass: "PASS ",
  warn: "WARN ",
  fail: "FAIL ",
  "n/a": "n/a  ",
  error: "ERROR",
  blocked: "BLOCK",
};

function progressLine(event: CheckProgress): string {
  if (event.kind === "profile")
    return `profiles: ${event.applied.join(", ") || "none"} (inferred: ${event.inferred.join(", ") || "none"})`;
  const { finding, done, total } = event;
  return `[${String(done).padStart(2)}/${total}] ${STATUS_MARKS[finding.status] ?? finding.status} ${finding.id.padEnd(24)} ${finding.message}`;
}

function summary(result: ReadinessResult): string {
  const { score, level } = result;
  const lines = [
    "",
    `${result.target.origin} — suite ${result.suite_version}, ${result.requests} requests in ${(result.duration_ms / 1000).toFixed(1)} s`,
    `Score: ${describeScore(result)} (${describeTally(score)})`,
    `Level: ${level.value} ${level.name}${level.next === null ? "" : ` — next: ${level.next.value} ${level.next.name} needs ${level.next.requirements.map((requirement) => requirement.check).join(", ")}`}`,
  ];
  if (result.render !== null) lines.push(`Rendered: ${result.render.note}`);
  const blocking = describeBlocking(result);
  if (blocking.length > 0) lines.push("", ...blocking);
  const failing = result.findings.filter((finding) => finding.status === "fail");
  if (failing.length > 0) {
    lines.push("", "Failing checks:");
    for (const finding of failing) lines.push(`  ${finding.id} (${finding.severity}): ${finding.message}`);
  }
  return lines.join("\n");
}

function parseFormat(value: string | undefined, json: boolean): Format | null {
  if (value === undefined) return json ? "json" : "text";
  return FORMATS.find((format) => format === value) ?? null;
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      format: { type: "string" },
      profile: { type: "string" },
      render: { type: "boolean", default: false },
      "fail-under": { type: "string", default: "0" },
      baseline: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const target = positionals[0];
  const failUnder = Number(values["fail-under"]);
  const format = parseFormat(values.format, values.json);
  if (
    target === undefined ||
    positionals.length > 1 ||
    format === null ||
    !Number.isFinite(failUnder) ||
    failUnder < 0 ||
    failUnder > 100
  ) {
    console.error(USAGE);
    return 2;
  }
  const profile: Profile[] | undefined = values.profile === undefined ? undefined : parseProfiles(values.profile);
  // Read before the scan, so a wrong path costs no requests to the site.
  const baseline = values.baseline === undefined ? null : await readBaseline(values.baseline);
  // Lines quote what the site wrote: inert before they reach a terminal, whose escape sequences they could hold.
  const log = (line: string): void => {
    (format === "text" ? process.stdout : process.stderr).write(`${inertBlock(line)}\n`);
  };
  const config = loadConfig();
  // Signed like the service's own checks, with the same keys (beside the database, or BOT_SIGNING_KEY).
  const signer = crawlerSigner(loadSigningKeys(filePath(config.database.url), config), config.siteUrl);
  const settings = checkerSettingsFromConfig(config, signer);
  const renderer = values.render ? new SiteRenderer({ executablePath: config.chromiumPath, settings }) : null;
  let result: ReadinessResult;
  try {
    result = await runReadinessCheck({
      target,
      settings,
      ...(profile === undefined ? {} : { profile }),
      ...(renderer === null ? {} : { renderer }),
      onProgress: (event) => log(progressLine(event)),
    });
  } finally {
    await renderer?.close();
  }
  if (result.render !== null && result.render.status !== "rendered")
    console.error(`cannot render: ${result.render.note}`);
  if (format === "json") process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else if (format === "junit") process.stdout.write(toJunit(result));
  else if (format === "sarif") process.stdout.write(`${JSON.stringify(toSarif(result, sarifTool(config)), null, 2)}\n`);
  else log(summary(result));
  const unreachable = unreachableReason(result);
  if (unreachable !== null) {
    console.error(inertBlock(`cannot check ${result.target.origin}: ${unreachable}`));
    return 2;
  }
  const comparison = baseline === null ? null : compareWithBaseline(baseline, result);
  if (baseline !== null && comparison !== null)
    for (const line of formatComparison(baseline, result, comparison)) log(line);
  if (result.incomplete) return 2;
  if (result.score.percent === null) return result.score.error > 0 ? 2 : failUnder > 0 ? 1 : 0;
  return result.score.percent >= failUnder && (comparison?.regressions ?? 0) === 0 ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (
    error instanceof TargetNotAllowedError ||
    error instanceof CheckerConfigurationError ||
    error instanceof ConfigError ||
    error instanceof BaselineError ||
    error instanceof RangeError
  ) {
    console.error(`cannot check: ${error.message}`);
  } else if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
    console.error(`${error.message}\n\n${USAGE}`);
  } else {
    throw error;
  }
  process.exitCode = 2;
}
