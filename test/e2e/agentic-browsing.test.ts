import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditPages, type PageAudit } from "../../scripts/audit/lighthouse.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let server: RunningServer;
let dir: string;
let home: PageAudit | undefined;
let checks: PageAudit | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentic-browsing-"));
  server = await startServer({ DATABASE_URL: `file:${join(dir, "service.db")}` });
  [home, checks] = await auditPages([`${server.url}/`, `${server.url}/checks`], 1, ["agentic-browsing"]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Each audit's outcome: its score, or "n/a" when Lighthouse found nothing it applies to. */
const outcomes = (page: PageAudit | undefined) =>
  Object.fromEntries(
    (page?.audits["agentic-browsing"] ?? []).map((audit) => [
      audit.id,
      audit.scoreDisplayMode === "notApplicable" ? "n/a" : audit.score,
    ]),
  );

describe("Lighthouse 13's agentic-browsing category", () => {
  it("scores the home page 100: a well-formed accessibility tree, no layout shift, a valid llms.txt and ai-catalog.json", () => {
    expect(home?.scores["agentic-browsing"]).toBe(100);
    expect(outcomes(home)).toEqual({
      "agent-accessibility-tree": 1,
      "cumulative-layout-shift": 1,
      "llms-txt": 1,
      "ard-schema": 1,
      // The home page has no form, so no declarative WebMCP tool to cover or validate.
      "webmcp-form-coverage": "n/a",
      "webmcp-schema-validity": "n/a",
      "webmcp-registered-tools": 1,
    });
  });

  it("finds the checks page's form registered as a WebMCP tool with a valid schema", () => {
    expect(checks?.scores["agentic-browsing"]).toBe(100);
    expect(outcomes(checks)).toMatchObject({ "webmcp-form-coverage": 1, "webmcp-schema-validity": 1 });
  });
});
