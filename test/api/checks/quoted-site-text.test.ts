import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdownReport } from "../../../api/checks/engine/render-markdown.ts";
import { toSarif } from "../../../api/checks/formats/sarif.ts";
import { toJunit } from "../../../scripts/check/junit.ts";
import type { ReadinessResult } from "../../../src/schemas/report.ts";
import { HOSTILE, type HostileTextSite, startHostileTextSite } from "../../fixtures/sites/hostile-text.ts";
import { entryArgs } from "../../helpers/entry.ts";
import { DAY_MS, linkPath, type MonitorBed, startMonitorBed } from "../../helpers/monitors.ts";
import { checkSite, messageOf } from "./engine/_helpers.ts";

/** What must never reach a reader raw: controls (ESC, BEL, C1) but line breaks and tabs, bidi and other format characters. */
const INVISIBLE = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const CLI = { timeout: 90_000 };

function runCheckCli(target: string, allowed: string): Promise<{ stdout: string; stderr: string }> {
  const keys = mkdtempSync(join(tmpdir(), "quoted-text-"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...entryArgs("check"), target], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: `file:${join(keys, "service.db")}`,
        CHECKS_ALLOWED_TARGETS: allowed,
      },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", () => {
      rmSync(keys, { recursive: true, force: true });
      resolve({ stdout, stderr });
    });
  });
}

describe("a robots.txt full of hostile text, in every output of a check", () => {
  let site: HostileTextSite;
  let result: ReadinessResult;
  beforeAll(async () => {
    site = await startHostileTextSite({ hostile: true });
    result = await checkSite(site);
  });
  afterAll(() => site.close());

  it("is quoted in the findings, cut to about 200 characters, with no finding past 1,000", () => {
    expect(messageOf(result, "policy.content-signals")).toContain(
      `"${HOSTILE.html}=yes"; "${HOSTILE.link}=no"; "\\u001B]0;pwned\\u0007\\u001B[2J=yes"; and 2 more`,
    );
    expect(messageOf(result, "robots.exists")).toContain(`"Disalow: ${HOSTILE.html}"`);
    expect(messageOf(result, "robots.exists")).toContain('"\\u001B]0;pwned\\u0007\\u001B[2J \\u202Egnp.exe"');
    for (const finding of result.findings) expect(finding.message.length).toBeLessThanOrEqual(1_001);
    expect(JSON.stringify(result).length).toBeLessThan(200_000);
  });

  it("reaches the JSON report with no control or bidi character", () => {
    expect(JSON.stringify(result)).not.toMatch(INVISIBLE);
  });

  it("reaches SARIF with its embedded-link syntax escaped", () => {
    const log = toSarif(result, { toolName: "t", informationUri: "https://agent-ready.test/docs/checks" });
    const texts = log.runs[0].results.map((entry) => entry.message.text).join("\n");
    expect(texts).toContain("\\[click me\\](https://evil.example/login)");
    expect(texts).not.toMatch(/(?<!\\)\[click me(?<!\\)\]\(/);
    expect(JSON.stringify(log)).not.toMatch(INVISIBLE);
  });

  it("reaches JUnit XML as text", () => {
    const xml = toJunit(result);
    expect(xml).not.toMatch(INVISIBLE);
    expect(xml).not.toContain("<img");
  });

  it("reaches the Markdown report only inside code spans: rendered, it makes no image, no link and no HTML", () => {
    const markdown = renderMarkdownReport(result);
    expect(markdown).not.toMatch(INVISIBLE);
    const html = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    expect(html).not.toMatch(/<img\b/);
    expect(html).not.toMatch(/<a [^>]*href="https:\/\/evil\.example/);
    expect(html).toContain(`<code>&quot;Disalow: &lt;img src=x onerror=alert(document.cookie)&gt;&quot;</code>`);
  });

  it("reaches the terminal from the check CLI with no escape sequence", CLI, async () => {
    const { stdout, stderr } = await runCheckCli(site.origin, site.hostPort);
    expect(stdout).toContain("policy.content-signals");
    expect(stdout).toContain("\\u001B]0;pwned\\u0007");
    expect(stdout + stderr).not.toMatch(INVISIBLE);
  });
});

describe("a monitored site whose robots.txt turns hostile", () => {
  let site: HostileTextSite;
  let bed: MonitorBed;
  beforeAll(async () => {
    site = await startHostileTextSite();
    bed = await startMonitorBed({ CHECKS_ALLOWED_TARGETS: site.hostPort });
  });
  afterAll(async () => {
    await bed?.close();
    await site?.close();
  });

  it("alerts in an e-mail whose text part quotes the site inertly, and stores bounded findings", async () => {
    const email = "owner@example.com";
    expect(
      (await bed.send("POST", "/api/v1/monitors", { domain: site.origin, email, frequency: "daily" })).status,
    ).toBe(202);
    const [confirm] = await bed.deliver();
    expect((await bed.postForm(linkPath(confirm?.text ?? "", "/monitors/confirm/"), {})).status).toBe(200);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1, alerts: 0 });

    site.turnHostile();
    bed.clock.advance(DAY_MS);
    expect(await bed.t.services.scheduler.runDue()).toMatchObject({ recorded: 1, alerts: 1 });
    const [alert] = await bed.deliver();
    expect(alert?.text).toMatch(/policy\.content-signals: pass → fail\. invalid Content-Signal entries: /);
    expect(alert?.text).toContain('"\\u001B]0;pwned\\u0007\\u001B[2J \\u202Egnp.exe"');
    // The MIME part's own line ends are CRLF; nothing else invisible may be there.
    expect(alert?.text.replace(/\r\n/g, "\n")).not.toMatch(INVISIBLE);
    expect(alert?.subject).not.toMatch(INVISIBLE);

    const stored = await bed.t.services.database.client.execute("SELECT checks FROM monitor_runs");
    for (const row of stored.rows) expect(String(row.checks).length).toBeLessThan(100_000);
  });
});
