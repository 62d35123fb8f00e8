import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  CLOUDFLARE_CHECK_IDS,
  COUNTERPARTS,
  checksFor,
  coveredIds,
  type ExternalScanner,
  LIGHTHOUSE_AGENTIC_AUDITS,
  WITHOUT_COUNTERPART,
} from "../../../../api/checks/engine/suite/counterparts.ts";
import { CHECK_SUITE } from "../../../../api/checks/engine/suite/registry.ts";

const SCANNERS: ReadonlyArray<[ExternalScanner, readonly string[]]> = [
  ["cloudflare", CLOUDFLARE_CHECK_IDS],
  ["lighthouse", LIGHTHOUSE_AGENTIC_AUDITS],
];

describe("the counterpart table", () => {
  it.each(SCANNERS)("gives every %s id a counterpart or a reason, never both", (scanner, ids) => {
    const covered = coveredIds(scanner);
    const missing = WITHOUT_COUNTERPART.filter((entry) => entry.scanner === scanner).map((entry) => entry.id);
    for (const id of ids) expect([covered.includes(id), missing.includes(id)]).toContain(true);
    expect(covered.filter((id) => missing.includes(id))).toEqual([]);
    expect([...covered, ...missing].filter((id) => !ids.includes(id))).toEqual([]);
  });

  it("maps only checks the suite has", () => {
    expect(Object.keys(COUNTERPARTS).filter((id) => !CHECK_SUITE.some((check) => check.id === id))).toEqual([]);
  });

  it("answers the audits that need a rendered page with rendered checks, and gives every other gap a reason", () => {
    expect(checksFor("lighthouse", "agent-accessibility-tree")).toEqual(["render.agent-tree"]);
    expect(checksFor("lighthouse", "cumulative-layout-shift")).toEqual(["render.layout-shift"]);
    expect(checksFor("lighthouse", "webmcp-schema-validity")).toEqual(["webmcp.valid", "render.webmcp-valid"]);
    for (const entry of WITHOUT_COUNTERPART) expect(entry.reason.length).toBeGreaterThan(40);
  });

  it("answers which of our checks stand for a Cloudflare or Lighthouse id", () => {
    expect(checksFor("cloudflare", "webMcp")).toEqual(["webmcp.tools"]);
    expect(checksFor("cloudflare", "ucp")).toEqual(["commerce.protocols"]);
    expect(checksFor("lighthouse", "ard-schema")).toEqual(["catalog.ai"]);
    expect(checksFor("cloudflare", "x402")).toEqual(["commerce.x402"]);
  });
});

describe("the catalogue page", () => {
  const page = readFileSync("content/docs/checks/catalogue.md", "utf8");

  it.each(SCANNERS)("names every %s id with its counterpart or the reason it has none", (_scanner, ids) => {
    expect(ids.filter((id) => !page.includes(`\`${id}\``))).toEqual([]);
  });
});
