import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditLedger, findCreditCode } from "../../../api/checks/sql/credits.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { startAgentReadySite } from "../../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../../fixtures/sites/serve.ts";
import { expectProblem } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { copyReport, readReport } from "../../helpers/reports.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

let site: FixtureSite;
let t: TestApp;
let address = 0;
const from = () => ({ "x-forwarded-for": `198.18.${Math.floor(++address / 250)}.${address % 250}` });
const runCheck = (body: unknown, headers = from()) => t.send("POST", "/api/v1/checks", body, headers);

beforeAll(async () => {
  site = await startAgentReadySite();
  t = await createTestApp({
    env: { CHECKS_ALLOWED_TARGETS: site.hostPort },
    // "private.example" stands for a public-looking name whose DNS answer is private.
    checkerLookup: async (hostname) =>
      hostname === "private.example" ? [{ address: "10.1.2.3", family: 4 }] : [{ address: "93.184.215.14", family: 4 }],
  });
});
afterAll(async () => {
  await t.close();
  await site.close();
});

describe("POST /api/v1/checks", () => {
  it("runs a check and answers the locked summary with how to unlock it", async () => {
    const response = await runCheck({ domain: site.origin });
    expect(response.status).toBe(200);
    const report = (await response.json()) as Record<string, unknown> & {
      unlock: { redeem: string | null; checkout: string | null };
      score: { percent: number };
    };
    expect(validateAgainstPublishedSchema("check-report", report)).toEqual([]);
    expect(report).toMatchObject({ locked: true, unlocked_at: null, target: { origin: site.origin } });
    expect(report).not.toHaveProperty("details");
    expect(report.score.percent).toBe(100);
    expect(report.unlock.redeem).toMatch(/\/api\/v1\/checks\/[0-9a-f-]{36}\/redeem$/);
    expect(report.unlock.checkout).toBeNull();
    expect(response.headers.get("ratelimit-policy")).toBe('"checks";q=10;w=60, "checks-daily";q=20;w=86400');
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["localhost", "loopback"],
    ["[::1]", "loopback"],
    ["10.0.0.8", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["0.0.0.0", "unspecified"],
    ["[::ffff:127.0.0.1]", "loopback"],
    ["[::127.0.0.1]", "ipv4-compatible form of 127.0.0.1, a loopback"],
    ["[::a9fe:a9fe]", "169.254.169.254, a link-local"],
    ["[64:ff9b::10.0.0.1]", "nat64 form of 10.0.0.1, a private"],
    ["[64:ff9b:1::8.8.8.8]", "local-use nat64"],
    ["[2002:7f00:1::1]", "6to4 form of 127.0.0.1"],
    ["[2001:0:4136:e378:8000:63bf:80ff:fffe]", "teredo form of 127.0.0.1"],
    ["http://2130706433/", "loopback"],
    ["http://0x7f000001/", "loopback"],
    ["private.example", "private"],
    ["ftp://example.com", "http"],
    ["https://user:secret@example.com", "user"],
  ])("refuses %s with a 422 problem naming the reason", async (domain, reason) => {
    const problem = await expectProblem(await runCheck({ domain }), 422, "target-not-allowed");
    expect(String(problem.detail).toLowerCase()).toContain(reason);
    expect(problem.errors).toEqual([{ pointer: "#/domain", detail: problem.detail }]);
  });

  it("answers 422 to a body that does not match check-input", async () => {
    const problem = await expectProblem(
      await runCheck({ domain: "", profile: "everything", price: 0 }),
      422,
      "validation-failed",
    );
    expect((problem.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual([
      "#/domain",
      "#/price",
      "#/profile",
    ]);
  });

  it("answers 429 after ten checks a minute from one address", async () => {
    const one = { "x-forwarded-for": "198.19.0.1" };
    for (let index = 0; index < 10; index++) expect((await runCheck({ domain: "10.0.0.1" }, one)).status).toBe(422);
    await expectProblem(await runCheck({ domain: site.origin }, one), 429, "rate-limited");
  });

  it("answers 503 while checks are switched off", async () => {
    await setSwitch(t.services.database.client, "checks", false, "test", new Date().toISOString());
    await expectProblem(await runCheck({ domain: site.origin }), 503, "form-closed");
    await setSwitch(t.services.database.client, "checks", true, "test", new Date().toISOString());
  });
});

describe("GET /api/v1/checks/{id}", () => {
  it("answers the report, as Markdown for agents that ask, and 404 for an unknown id", async () => {
    const { id } = (await (await runCheck({ domain: site.origin })).json()) as { id: string };
    const json = await t.send("GET", `/api/v1/checks/${id}`);
    expect(json.status).toBe(200);
    expect(json.headers.get("vary")).toBe("Accept, Accept-Encoding");
    expect(((await json.json()) as { locked: boolean }).locked).toBe(true);
    const markdown = await t.send("GET", `/api/v1/checks/${id}`, undefined, { accept: "text/markdown" });
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await markdown.text()).toMatch(/^# Readiness of http:\/\/127\.0\.0\.1:\d+\n[\s\S]*## Unlock the fixes/);
    await expectProblem(await t.send("GET", `/api/v1/checks/${randomUUID()}`), 404, "not-found");
    await expectProblem(await t.send("GET", "/api/v1/checks/not-a-uuid"), 404, "not-found");
  });
});

describe("POST /api/v1/checks/{id}/redeem", () => {
  async function newReport(): Promise<string> {
    const { id } = (await (await runCheck({ domain: site.origin })).json()) as { id: string };
    return id;
  }

  it("unlocks with one credit, shows the full detail, and says how many credits remain", async () => {
    const id = await newReport();
    const issued = await t.services.checks.issueCode(3, "staff", null, null);
    const typed = (issued?.code ?? "").toLowerCase().replace(/-/g, " ");
    const response = await t.send("POST", `/api/v1/checks/${id}/redeem`, { code: typed }, from());
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(validateAgainstPublishedSchema("check-redeemed", body)).toEqual([]);
    expect(body).toEqual({ id, unlocked: true, credits_remaining: 2 });
    const report = (await (await t.send("GET", `/api/v1/checks/${id}`)).json()) as {
      locked: boolean;
      details: { prompt: string }[];
      unlock: unknown;
    };
    expect(report.locked).toBe(false);
    expect(report.unlock).toBeNull();
    expect(report.details.length).toBeGreaterThan(30);
    expect(
      await (await t.send("GET", `/api/v1/checks/${id}`, undefined, { accept: "text/markdown" })).text(),
    ).not.toContain("## Unlock the fixes");
    await expectProblem(
      await t.send("POST", `/api/v1/checks/${id}/redeem`, { code: issued?.code }, from()),
      409,
      "already-unlocked",
    );
    expect((await findCreditCode(t.services.database.client, { id: issued?.id ?? "" }))?.credits_remaining).toBe(2);
  });

  it("answers 422 to a malformed code, a mistyped one and an unknown one; 409 when no credit is left", async () => {
    const id = await newReport();
    // A code that cannot be one fails the published schema's pattern, so it is a validation failure.
    const malformed = await expectProblem(
      await t.send("POST", `/api/v1/checks/${id}/redeem`, { code: "ABC" }, from()),
      422,
      "validation-failed",
    );
    expect(malformed.errors).toEqual([{ pointer: "#/code", detail: expect.stringContaining("20 characters") }]);
    const issued = await t.services.checks.issueCode(1, "staff", null, null);
    const code = issued?.code ?? "";
    const mistyped = `${code.slice(0, 3)}${code[3] === "7" ? "8" : "7"}${code.slice(4)}`;
    const typo = await expectProblem(
      await t.send("POST", `/api/v1/checks/${id}/redeem`, { code: mistyped }, from()),
      422,
      "invalid-credit-code",
    );
    expect(typo.detail).toContain("check character");
    const other = await t.services.checks.issueCode(1, "staff", null, null);
    await t.services.database.client.execute({
      sql: "DELETE FROM credit_ledger WHERE code_id = ?",
      args: [other?.id ?? ""],
    });
    await t.services.database.client.execute({ sql: "DELETE FROM credit_codes WHERE id = ?", args: [other?.id ?? ""] });
    await expectProblem(
      await t.send("POST", `/api/v1/checks/${id}/redeem`, { code: other?.code }, from()),
      422,
      "invalid-credit-code",
    );
    expect((await t.send("POST", `/api/v1/checks/${id}/redeem`, { code }, from())).status).toBe(200);
    await expectProblem(
      await t.send("POST", `/api/v1/checks/${await newReport()}/redeem`, { code }, from()),
      409,
      "no-credits-left",
    );
    await expectProblem(
      await t.send("POST", `/api/v1/checks/${randomUUID()}/redeem`, { code }, from()),
      404,
      "not-found",
    );
  });

  it("unlocks exactly three of ten reports redeemed at once with a three-credit code, and the ledger balances", async () => {
    const templateId = await newReport();
    const reports = { db: t.services.database.client, keys: t.services.keys };
    const ids = await Promise.all(Array.from({ length: 10 }, () => copyReport(reports, templateId)));
    const issued = await t.services.checks.issueCode(3, "staff", null, null);
    const statuses = await Promise.all(
      ids.map((id, index) =>
        t
          .send(
            "POST",
            `/api/v1/checks/${id}/redeem`,
            { code: issued?.code },
            { "x-forwarded-for": `198.20.0.${index}` },
          )
          .then((response) => response.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(7);
    const unlocked = (await Promise.all(ids.map((id) => readReport(reports, id)))).filter(
      (report) => report?.unlocked_at !== null,
    );
    expect(unlocked).toHaveLength(3);
    const code = await findCreditCode(t.services.database.client, { id: issued?.id ?? "" });
    const ledger = await creditLedger(t.services.database.client, issued?.id ?? "");
    expect(code?.credits_remaining).toBe(0);
    expect(ledger.reduce((sum, entry) => sum + entry.delta, 0)).toBe(code?.credits_remaining);
    expect(
      ledger
        .filter((entry) => entry.reason === "redeemed")
        .map((entry) => entry.report_id)
        .sort(),
    ).toEqual(unlocked.map((report) => report?.key).sort());
  });
});
