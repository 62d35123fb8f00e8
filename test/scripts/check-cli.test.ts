import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_SUITE } from "../../api/checks/engine/suite/registry.ts";
import type { SarifLog } from "../../api/checks/formats/sarif.ts";
import { loadSigningKeys } from "../../api/platform/signing/signing-keys.ts";
import { ReadinessResultSchema } from "../../src/schemas/report.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import { startBareSite } from "../fixtures/sites/bare.ts";
import { startBotProtectedSite } from "../fixtures/sites/bot-protected.ts";
import { type FixtureSite, startFixtureSite } from "../fixtures/sites/serve.ts";
import { page, type StaticDocument, startStaticSite } from "../fixtures/sites/static-site.ts";
import { entryArgs } from "../helpers/entry.ts";
import { verifyEd25519 } from "../helpers/rfc9421.ts";
import { sarifSchemaErrors } from "../helpers/sarif.ts";

function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...entryArgs("check"), ...args], {
      // The CLI signs with the keys beside DATABASE_URL's file: a temporary one, not the worktree's data/.
      env: { ...process.env, NODE_ENV: "test", DATABASE_URL: `file:${join(keysDir, "service.db")}`, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const keysDir = mkdtempSync(join(tmpdir(), "check-cli-"));
afterAll(() => rm(keysDir, { recursive: true, force: true }));

// Each test spawns the CLI (from the compiled entry): seconds when the machine is quiet, far more on a busy one.
const CLI_TESTS = { timeout: 90_000 };

describe("npm run check", CLI_TESTS, () => {
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

  it("says how many checks a site's bot protection blocked and what to allow, and fails --fail-under (text, json, junit)", async () => {
    const guarded = await startBotProtectedSite();
    try {
      const env = { CHECKS_ALLOWED_TARGETS: guarded.hostPort };
      const text = await runCli([guarded.origin, "--fail-under", "0"], env);
      expect(text.code).toBe(2);
      expect(text.stdout).toMatch(/BLOCK llms\.exists/);
      expect(text.stdout).toMatch(
        /Score: incomplete: the site's bot protection kept the scanner from judging \d+ checks/,
      );
      expect(text.stdout).toMatch(
        /^What to allow: .*Allow requests whose Web Bot Auth signature verifies .*the User-Agent "AgentReadyBot\/1\.0/m,
      );
      const json = await runCli([guarded.origin, "--json"], env);
      const result = ReadinessResultSchema.parse(JSON.parse(json.stdout));
      expect(json.code).toBe(2);
      expect(result.incomplete).toBe(true);
      expect(result.blocked?.checks).toBe(result.findings.filter((finding) => finding.status === "blocked").length);
      const junit = await runCli([guarded.origin, "--format", "junit"], env);
      expect(junit.code).toBe(2);
      expect(junit.stdout).toMatch(
        /<testcase [^>]*name="llms\.exists: [^"]*"[^>]*>\s*<error message="blocked by the site&apos;s bot protection[^"]*" type="blocked">/,
      );
      expect(junit.stdout).toMatch(/<property name="blocked" value="\d+ checks: Your bot protection/);
    } finally {
      await guarded.close();
    }
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

  it("signs every request with the crawler's key kept beside DATABASE_URL's file, verifiable independently", async () => {
    const received: Array<{ method: string; url: string; headers: Record<string, string> }> = [];
    const signed = await startFixtureSite((request, response, origin) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ method: request.method ?? "GET", url: `${origin}${request.url ?? "/"}`, headers });
      response.writeHead(request.url === "/" ? 200 : 404, { "content-type": "text/html" }).end("<h1>Hello</h1>");
    });
    try {
      const { code } = await runCli([signed.origin], { CHECKS_ALLOWED_TARGETS: signed.hostPort });
      expect(code).not.toBe(2);
      const keys = loadSigningKeys(join(keysDir, "service.db"), {
        botSigningKey: undefined,
        botSigningKeyPrevious: [],
      });
      expect(received.length).toBeGreaterThan(5);
      for (const request of received) verifyEd25519({ request }, "sig1", keys.current.publicJwk);
    } finally {
      await signed.close();
    }
  });

  it("renders with --render: every rendered check passes or is n/a on a server-rendered site", async () => {
    const { code, stdout } = await runCli([site.origin, "--render"], { CHECKS_ALLOWED_TARGETS: site.hostPort });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Rendered: 3 page\(s\) rendered in Chromium through the scan's guard proxy: \d+ requests/m);
    expect(stdout).toMatch(/PASS {2}render\.content/);
    expect(stdout).not.toMatch(/(WARN |FAIL |ERROR) render\./);
  });

  it("says so with --render where no browser is installed, and the static report stands", async () => {
    const { code, stdout, stderr } = await runCli([site.origin, "--render"], {
      CHECKS_ALLOWED_TARGETS: site.hostPort,
      CHROMIUM_PATH: "/nonexistent/chromium",
    });
    expect(code).toBe(0);
    expect(stderr).toMatch(
      /^cannot render: not rendered: no Chromium at \/nonexistent\/chromium \(install Debian's chromium package, or set CHROMIUM_PATH\); the static report stands$/m,
    );
    expect(stdout).toMatch(/n\/a {3}render\.content/);
    expect(stdout).toMatch(/Score: 100\/100/);
  });

  it("exits 2 with the reason when the target is private and not allow-listed", async () => {
    const { code, stderr } = await runCli([site.origin]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot check: port \d+ is not checked|127\.0\.0\.1 is a loopback address/);
  });
});

describe("npm run check in CI", CLI_TESTS, () => {
  let site: FixtureSite;
  let dir: string;
  const documents: Record<string, StaticDocument> = {
    "/": page("<main><h1>Widgets</h1><p>We make widgets.</p></main>"),
    "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\n" },
  };
  beforeAll(async () => {
    site = await startStaticSite(documents);
    dir = await mkdtemp(join(tmpdir(), "check-cli-"));
  });
  afterAll(async () => {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("writes JUnit XML with one testcase per check, and its progress to stderr", async () => {
    const { code, stdout, stderr } = await runCli([site.origin, "--format", "junit"], {
      CHECKS_ALLOWED_TARGETS: site.hostPort,
    });
    expect(code).toBe(0);
    expect(XMLValidator.validate(stdout)).toBe(true);
    const suite = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(stdout).testsuites
      .testsuite;
    expect(suite.testcase).toHaveLength(CHECK_SUITE.length);
    expect(Number(suite.failures)).toBeGreaterThan(0);
    expect(suite.testcase).toContainEqual(
      expect.objectContaining({ name: expect.stringMatching(/^llms\.exists: /), failure: expect.anything() }),
    );
    expect(stderr).toMatch(/PASS {2}robots\.exists/);
  });

  it("writes SARIF 2.1.0 valid against the official schema with --format sarif, and its progress to stderr", async () => {
    const { code, stdout, stderr } = await runCli([site.origin, "--format", "sarif"], {
      CHECKS_ALLOWED_TARGETS: site.hostPort,
    });
    expect(code).toBe(0);
    const log = JSON.parse(stdout) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].tool.driver.rules).toHaveLength(CHECK_SUITE.length);
    expect(log.runs[0].results.map((result) => result.ruleId)).toContain("llms.exists");
    expect(log.runs[0].results.find((result) => result.ruleId === "llms.exists")?.level).toBe("error");
    expect(stderr).toMatch(/PASS {2}robots\.exists/);
  });

  it("prints what regressed against a baseline and exits 1, then 0 once nothing got worse", async () => {
    const env = { CHECKS_ALLOWED_TARGETS: site.hostPort };
    const baseline = join(dir, "old.json");
    await writeFile(baseline, (await runCli([site.origin, "--json"], env)).stdout);
    delete documents["/robots.txt"];
    // JSON on stdout, so this run is also the next baseline; the comparison goes to stderr with the progress.
    const worse = await runCli([site.origin, "--json", "--baseline", baseline], env);
    expect(worse.code).toBe(1);
    expect(worse.stderr).toMatch(
      /regressed \(\d+\):\n(?: {4}.*\n)*? {4}robots\.exists: pass → fail — robots\.txt is missing/,
    );
    expect(worse.stderr).toMatch(/\d+ regression\(s\): a check got worse or a new check fails\n$/);
    await writeFile(baseline, worse.stdout);
    const same = await runCli([site.origin, "--baseline", baseline], env);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/ {2}no regressions\n$/);
  });

  it("refuses a baseline it cannot read before sending a request", async () => {
    const before = site.requests.length;
    const { code, stderr } = await runCli([site.origin, "--baseline", join(dir, "missing.json")], {
      CHECKS_ALLOWED_TARGETS: site.hostPort,
    });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^cannot check: cannot read the baseline .*missing\.json/);
    expect(site.requests.length).toBe(before);
  });

  it("checks a bare host:port over https and says plainly when the server does not speak TLS", async () => {
    const plain = createServer((_request, response) => response.end("plain http"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    const address = plain.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    const hostPort = `127.0.0.1:${address.port}`;
    try {
      const { code, stdout, stderr } = await runCli([hostPort], { CHECKS_ALLOWED_TARGETS: hostPort });
      expect(code).toBe(2);
      expect(stderr).toContain(
        `cannot check https://${hostPort}: could not connect over HTTPS to ${hostPort}: the server does not speak TLS on ${hostPort} (it may serve plain HTTP there)`,
      );
      expect(`${stdout}${stderr}`).not.toMatch(/SSL routines|wrong version number|ERR_SSL/);
    } finally {
      plain.close();
    }
  });
});
