import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_SUITE } from "../../../api/checks/engine/suite/registry.ts";
import { type SarifLog, sarifLevel, toSarif } from "../../../api/checks/formats/sarif.ts";
import type { ReadinessResult } from "../../../src/schemas/report.ts";
import { startBareSite } from "../../fixtures/sites/bare.ts";
import type { FixtureSite } from "../../fixtures/sites/serve.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { sarifSchemaErrors } from "../../helpers/sarif.ts";
import { checkSite } from "./engine/_helpers.ts";

const TOOL = { toolName: "AgentReady readiness checker", informationUri: "https://agent-ready.test/docs/checks" };
const SARIF = "application/sarif+json";

let site: FixtureSite;
let t: TestApp;
let result: ReadinessResult;
beforeAll(async () => {
  // A homepage and nothing else: most checks fail or warn, so the log has plenty of results.
  site = await startBareSite();
  result = await checkSite(site);
  t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: site.hostPort } });
});
afterAll(async () => {
  await t.close();
  await site.close();
});

const notPassing = (report: ReadinessResult) =>
  report.findings.filter((finding) => finding.status !== "pass" && finding.status !== "n/a");

describe("a readiness report as SARIF 2.1.0", () => {
  it("is valid against the official OASIS schema, which does catch a malformed log", () => {
    const log = toSarif(result, TOOL);
    expect(sarifSchemaErrors(log)).toEqual([]);
    const broken = JSON.parse(JSON.stringify(log)) as { runs: [{ results: Array<{ level: string }> }] };
    broken.runs[0].results[0] = { ...broken.runs[0].results[0], level: "fatal" };
    expect(sarifSchemaErrors(broken).join("\n")).toContain("/runs/0/results/0/level");
  });

  it("has one rule per stable check id, with its title, the remediation as help and the specification as helpUri", () => {
    const { rules } = toSarif(result, TOOL).runs[0].tool.driver;
    expect(rules.map((rule) => rule.id)).toEqual(result.findings.map((finding) => finding.id));
    expect(new Set(rules.map((rule) => rule.id)).size).toBe(CHECK_SUITE.length);
    for (const rule of rules) {
      const check = CHECK_SUITE.find((candidate) => candidate.id === rule.id);
      expect(rule.shortDescription.text).toBe(check?.title);
      expect(rule.help.text).toBe(check?.remediation);
      expect(rule.helpUri).toBe(check?.specUrls[0]);
    }
  });

  it("has one result per failed or warned check, its level from the status, located at the URL the check judged", () => {
    const log = toSarif(result, TOOL);
    const { results, tool } = log.runs[0];
    expect(results.map((entry) => entry.ruleId)).toEqual(notPassing(result).map((finding) => finding.id));
    expect(results.some((entry) => entry.level === "error")).toBe(true);
    for (const entry of results) {
      const finding = result.findings.find((candidate) => candidate.id === entry.ruleId);
      expect(entry.level).toBe(sarifLevel(finding?.status ?? ""));
      expect(entry.message.text).toBe(finding?.message);
      expect(tool.driver.rules[entry.ruleIndex]?.id).toBe(entry.ruleId);
      expect(entry.locations[0].physicalLocation.artifactLocation.uri.startsWith(site.origin)).toBe(true);
    }
    const robots = results.find((entry) => entry.ruleId === "robots.exists");
    expect(robots?.locations[0].physicalLocation.artifactLocation.uri).toBe(`${site.origin}/robots.txt`);
  });

  it("maps statuses generically, so an outcome a later suite adds is a note rather than lost or an error", () => {
    expect([sarifLevel("pass"), sarifLevel("n/a")]).toEqual([null, null]);
    expect([sarifLevel("fail"), sarifLevel("warn")]).toEqual(["error", "warning"]);
    expect([sarifLevel("error"), sarifLevel("blocked")]).toEqual(["note", "note"]);
  });
});

describe("GET /api/v1/checks/{id} with Accept: application/sarif+json", () => {
  let id = "";
  beforeAll(async () => {
    const response = await t.send(
      "POST",
      "/api/v1/checks",
      { domain: site.origin },
      { "x-forwarded-for": "198.18.7.1" },
    );
    id = ((await response.json()) as { id: string }).id;
  });
  const read = (accept: string) => t.send("GET", `/api/v1/checks/${id}`, undefined, { accept });

  it("answers a locked report's free summary only: every result and rule, but no remediation and no evidence URL", async () => {
    const response = await read(SARIF);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(SARIF);
    expect(response.headers.get("vary")).toContain("Accept");
    const text = await response.text();
    const log = JSON.parse(text) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    const { results, properties, tool } = log.runs[0];
    expect(properties).toMatchObject({ locked: true, unlock: expect.stringContaining(`/checks/${id}`) });
    expect(results.length).toBeGreaterThan(5);
    for (const entry of results) expect(entry.locations[0].physicalLocation.artifactLocation.uri).toBe(site.origin);
    for (const rule of tool.driver.rules) expect(rule.help.text).toContain("unlocked report");
    for (const check of CHECK_SUITE) expect(text).not.toContain(check.remediation);
    // The clauses behind each verdict are part of the locked detail too.
    for (const entry of results) expect(entry.properties).not.toHaveProperty("clauses");
  });

  it("answers the full log once the report is unlocked", async () => {
    const code = await t.services.checks.issueCode(1, "staff", null, null);
    const redeemed = await t.send(
      "POST",
      `/api/v1/checks/${id}/redeem`,
      { code: code?.code },
      { "x-forwarded-for": "198.18.7.2" },
    );
    expect(redeemed.status).toBe(200);
    const log = (await (await read(SARIF)).json()) as SarifLog;
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(log.runs[0].properties.locked).toBe(false);
    const robots = log.runs[0].results.find((entry) => entry.ruleId === "robots.exists");
    expect(robots?.locations[0].physicalLocation.artifactLocation.uri).toBe(`${site.origin}/robots.txt`);
    const rule = log.runs[0].tool.driver.rules.find((candidate) => candidate.id === "robots.exists");
    expect(rule?.help.text).toBe(CHECK_SUITE.find((check) => check.id === "robots.exists")?.remediation);
  });

  it("keeps JSON for Accept: application/json, */* and a SARIF that JSON outranks", async () => {
    for (const accept of ["application/json", "*/*", `application/json, ${SARIF};q=0.5`]) {
      const response = await read(accept);
      expect(response.headers.get("content-type"), accept).toMatch(/^application\/json/);
    }
  });

  it("is declared in the OpenAPI description as a representation of the operation", async () => {
    const openapi = (await (await t.send("GET", "/openapi.json")).json()) as {
      paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }>;
    };
    // Paths are relative to the `/api/v1` server.
    expect(Object.keys(openapi.paths["/checks/{id}"]?.get.responses["200"]?.content ?? {})).toContain(SARIF);
  });
});
