import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findReport, insertReport, unlockReport } from "../../../api/checks/sql/reports.ts";
import { FileSql } from "../../../api/db/file-sql.ts";
import { migrate } from "../../../api/db/migrate.ts";
import type { ReadinessResult } from "../../../src/schemas/report.ts";
import { startAgentReadySite } from "../../fixtures/sites/agent-ready.ts";
import { checkSite } from "./engine/_helpers.ts";

let dir: string;
let sql: FileSql;
let result: ReadinessResult;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reports-"));
  sql = new FileSql(join(dir, "service.db"), 5_000);
  await migrate(sql);
  const site = await startAgentReadySite();
  try {
    result = await checkSite(site);
  } finally {
    await site.close();
  }
});
afterAll(async () => {
  sql.close();
  await rm(dir, { recursive: true, force: true });
});

const AT = "2026-11-22T12:00:00.000Z";

describe("stored readiness reports", () => {
  it("keep the evidence apart from the summary, and hand it out only once unlocked", async () => {
    await insertReport(sql, "00000000-0000-4000-8000-000000000001", result, AT);
    const row = await sql.queryOne({
      sql: "SELECT result, details FROM check_reports WHERE id = ?",
      args: ["00000000-0000-4000-8000-000000000001"],
    });
    expect(Object.keys(JSON.parse(String(row?.result)))).not.toContain("details");
    expect(JSON.parse(String(row?.details))).toEqual(result.details);

    const { details, ...summary } = result;
    const locked = await findReport(
      sql,
      "00000000-0000-4000-8000-000000000001",
      "00000000-0000-4000-8000-000000000001",
    );
    expect(locked).toMatchObject({ summary, details: null, unlocked_at: null });

    expect(await unlockReport(sql, "00000000-0000-4000-8000-000000000001", "staff", "test", AT)).toBe(true);
    expect(
      await findReport(sql, "00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000001"),
    ).toMatchObject({
      summary,
      details,
      unlocked_at: AT,
      unlock_source: "staff",
    });
  });

  it("read reports written before the split (details inside the result), and validate those of an older suite", async () => {
    const legacy = { ...result, suite_version: "2026.10.0" };
    await sql.execute({
      sql: "INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, created_at, unlocked_at, unlock_source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'staff')",
      args: [
        "00000000-0000-4000-8000-000000000002",
        result.target.origin,
        result.target.input,
        legacy.suite_version,
        result.score.percent,
        result.level.value,
        JSON.stringify(legacy),
        AT,
        AT,
      ],
    });
    const read = await findReport(sql, "00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000002");
    expect(read?.details).toEqual(result.details);
    expect(read?.summary.suite_version).toBe("2026.10.0");

    const { score: _dropped, ...broken } = legacy;
    await sql.execute({
      sql: "INSERT INTO check_reports (id, origin, input, suite_version, score, level, result, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      args: [
        "00000000-0000-4000-8000-000000000003",
        result.target.origin,
        result.target.input,
        legacy.suite_version,
        null,
        0,
        JSON.stringify(broken),
        AT,
      ],
    });
    await expect(
      findReport(sql, "00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000003"),
    ).rejects.toThrow(/score/);
  });
});
