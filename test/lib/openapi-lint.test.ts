import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { testBuild } from "../helpers/test-build.ts";

const run = promisify(execFile);

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

/** `redocly lint` (the CLI, its built-in recommended rules) on the openapi.json the build wrote. */
async function redoclyLint(
  file: string,
): Promise<{ totals: { errors: number; warnings: number }; problems: LintProblem[] }> {
  const cli = join(process.cwd(), "node_modules", "@redocly", "cli", "bin", "cli.js");
  const env = {
    ...process.env,
    // No telemetry and no update check: nothing here may reach the network.
    REDOCLY_TELEMETRY: "off",
    REDOCLY_SUPPRESS_NOTIFICATIONS: "true",
    REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  };
  // It exits 1 when it finds an error; the report on stdout is what is asserted.
  const { stdout } = await run(process.execPath, [cli, "lint", file, "--format=json"], { env }).catch(
    (failed: { stdout: string }) => failed,
  );
  return JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
}

describe("openapi.json under redocly lint", () => {
  it("reports no errors, and no warning but the two paths the contract fixes", async () => {
    const report = await redoclyLint(join(testBuild().distDir, "client", "openapi.json"));
    const described = report.problems.map(
      (problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ""}`,
    );
    // `/store/{id}/checkout` (POST) and `/store/sessions/{session_id}` (GET) are the API description's own
    // paths; the rule looks at paths without methods, and no request can reach both.
    expect(described).toEqual(["warn no-ambiguous-paths #/paths/~1store~1sessions~1{session_id}"]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);
});
