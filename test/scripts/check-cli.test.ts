import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReadinessResultSchema } from "../../src/schemas/report.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import { startBareSite } from "../fixtures/sites/bare.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";

function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/check.ts", ...args], {
      env: { ...process.env, NODE_ENV: "test", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("npm run check", () => {
  let site: FixtureSite;
  beforeAll(async () => {
    site = await startAgentReadySite();
  });
  afterAll(() => site.close());

  it("prints one progress line per check, then the score and level, and exits 0", async () => {
    const { code, stdout } = await runCli([site.origin], { CHECKS_ALLOWED_TARGETS: site.hostPort });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^profiles: content, docs, api, agent, commerce/m);
    expect(stdout).toMatch(/PASS {2}mcp\.live/);
    expect(stdout).toMatch(/Score: 100\/100/);
    expect(stdout).toMatch(/Level: 4 Agent-Integrated/);
  });

  it("prints the result as JSON with --json and its progress on stderr", async () => {
    const { code, stdout, stderr } = await runCli(
      [site.origin, "--json", "--profile", "content,docs", "--fail-under", "100"],
      { CHECKS_ALLOWED_TARGETS: site.hostPort },
    );
    expect(code).toBe(0);
    expect(ReadinessResultSchema.parse(JSON.parse(stdout)).profile.applied).toEqual(["content", "docs"]);
    expect(stderr).toMatch(/\[ ?\d+\/\d+\] PASS {2}http\.home-200/);
  });

  it("exits 1 when the score is below --fail-under, and 2 for a usage error", async () => {
    const bare = await startBareSite();
    try {
      const below = await runCli([bare.origin, "--fail-under", "50"], { CHECKS_ALLOWED_TARGETS: bare.hostPort });
      expect(below.code).toBe(1);
      expect(below.stdout).toMatch(/Failing checks:[\s\S]*\n {2}robots\.exists \(high\): robots\.txt is missing/);
    } finally {
      await bare.close();
    }
    const usage = await runCli([site.origin, "--fail-under", "101"], { CHECKS_ALLOWED_TARGETS: site.hostPort });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^Usage: npm run check/);
  });

  it("exits 2 with the reason when the target is private and not allow-listed", async () => {
    const { code, stderr } = await runCli([site.origin]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot check: port \d+ is not checked|127\.0\.0\.1 is a loopback address/);
  });
});
