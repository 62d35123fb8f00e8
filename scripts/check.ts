import { parseArgs } from "node:util";
import { TargetNotAllowedError } from "../api/checks/engine/fetch/address-guard.ts";
import { describeScore } from "../api/checks/engine/render-markdown.ts";
import { type CheckProgress, runReadinessCheck } from "../api/checks/engine/run-check.ts";
import { parseProfiles } from "../api/checks/engine/scoring.ts";
import { CheckerConfigurationError, checkerSettingsFromConfig } from "../api/checks/engine/settings.ts";
import { ConfigError, loadConfig } from "../api/config.ts";
import type { Profile, ReadinessResult } from "../src/schemas/report.ts";

const USAGE = `Usage: npm run check -- <domain or URL> [--json] [--profile a,b] [--fail-under N]

Checks one site for agent readiness and prints what passes, what fails and how to fix it.

  <domain or URL>    example.com (checked over https) or a URL whose origin is checked
  --json             print the full result as JSON on stdout (progress goes to stderr)
  --profile a,b      judge the site as these profiles instead of the inferred ones:
                     content, docs, api, agent, commerce, or all
  --fail-under N     exit 1 when the score is below N (0-100; default 0)
  -h, --help         show this help

Exit codes: 0 score >= fail-under; 1 score below it; 2 nothing could be scored, the report is incomplete (more
than a quarter of the checks could not reach a verdict), or the target was refused.
Private targets (tests, local work) must be listed in CHECKS_ALLOWED_TARGETS=host:port,...`;

const STATUS_MARKS: Record<string, string> = {
  pass: "PASS ",
  warn: "WARN ",
  fail: "FAIL ",
  "n/a": "n/a  ",
  error: "ERROR",
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
    `Score: ${describeScore(result)} (${score.pass} pass, ${score.fail} fail, ${score.warn} warn, ${score.na} n/a, ${score.error} error)`,
    `Level: ${level.value} ${level.name}${level.next === null ? "" : ` — next: ${level.next.value} ${level.next.name} needs ${level.next.requirements.map((requirement) => requirement.check).join(", ")}`}`,
  ];
  const failing = result.findings.filter((finding) => finding.status === "fail");
  if (failing.length > 0) {
    lines.push("", "Failing checks:");
    for (const finding of failing) lines.push(`  ${finding.id} (${finding.severity}): ${finding.message}`);
  }
  return lines.join("\n");
}

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      json: { type: "boolean", default: false },
      profile: { type: "string" },
      "fail-under": { type: "string", default: "0" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const target = positionals[0];
  const failUnder = Number(values["fail-under"]);
  if (
    target === undefined ||
    positionals.length > 1 ||
    !Number.isFinite(failUnder) ||
    failUnder < 0 ||
    failUnder > 100
  ) {
    console.error(USAGE);
    return 2;
  }
  const profile: Profile[] | undefined = values.profile === undefined ? undefined : parseProfiles(values.profile);
  const log = (line: string): void => {
    (values.json ? process.stderr : process.stdout).write(`${line}\n`);
  };
  const result = await runReadinessCheck({
    target,
    settings: checkerSettingsFromConfig(loadConfig()),
    ...(profile === undefined ? {} : { profile }),
    onProgress: (event) => log(progressLine(event)),
  });
  if (values.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else log(summary(result));
  if (result.incomplete) return 2;
  if (result.score.percent === null) return result.score.error > 0 ? 2 : failUnder > 0 ? 1 : 0;
  return result.score.percent >= failUnder ? 0 : 1;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (
    error instanceof TargetNotAllowedError ||
    error instanceof CheckerConfigurationError ||
    error instanceof ConfigError ||
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
