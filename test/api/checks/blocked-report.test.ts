import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markdownInline } from "../../../src/lib/site-text.ts";
import { startBotProtectedSite } from "../../fixtures/sites/bot-protected.ts";
import type { FixtureSite } from "../../fixtures/sites/serve.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

let site: FixtureSite;
let t: TestApp;

beforeAll(async () => {
  site = await startBotProtectedSite();
  t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: site.hostPort } });
});
afterAll(async () => {
  await t.close();
  await site.close();
});

interface BlockedReport {
  id: string;
  incomplete: boolean;
  score: { percent: number | null; blocked: number };
  blocked: { checks: number; signals: Array<{ kind: string; url: string; detail: string }>; allow: string } | null;
  findings: Array<{ id: string; status: string; message: string }>;
}

describe("a check of a site behind bot protection, through the API", () => {
  let report: BlockedReport;
  beforeAll(async () => {
    const response = await t.send("POST", "/api/v1/checks", { domain: site.origin });
    expect(response.status).toBe(200);
    report = (await response.json()) as BlockedReport;
  });

  it("answers a locked summary that matches the published schema and says how many checks were blocked and what to allow", () => {
    expect(validateAgainstPublishedSchema("check-report", report)).toEqual([]);
    expect(report.incomplete).toBe(true);
    expect(report.score.percent).toBeNull();
    const blocked = report.findings.filter((finding) => finding.status === "blocked");
    expect(blocked.map((finding) => finding.id)).toEqual(expect.arrayContaining(["llms.exists", "robots.sitemap"]));
    expect(report.blocked?.checks).toBe(blocked.length);
    expect(report.blocked?.signals.map((signal) => signal.kind)).toEqual(
      expect.arrayContaining(["user-agent", "challenge"]),
    );
    expect(report.blocked?.allow).toMatch(
      /^Your bot protection answered our scanner with .*Allow requests whose Web Bot Auth signature verifies .*the User-Agent "AgentReadyBot\/1\.0/,
    );
  });

  it("says so in the locked Markdown an agent reads, too", async () => {
    const response = await t.send("GET", `/api/v1/checks/${report.id}`, undefined, { accept: "text/markdown" });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toMatch(/> Score incomplete: the site's bot protection kept the scanner from judging \d+ checks/);
    // The allow text names paths the site linked: escaped as Markdown, its quoted User-Agent in a code span.
    expect(text).toContain(`What to allow: ${markdownInline(report.blocked?.allow ?? "?")}`);
    expect(text).toMatch(/What to allow: .*`"AgentReadyBot\/1\.0 /);
    expect(text).toMatch(/- \*\*blocked\*\* `llms\.exists`/);
  });

  it("keeps the report's blocked summary when it is read again", async () => {
    const again = (await (await t.send("GET", `/api/v1/checks/${report.id}`)).json()) as BlockedReport;
    expect(validateAgainstPublishedSchema("check-report", again)).toEqual([]);
    expect(again.blocked).toEqual(report.blocked);
  });
});
