import { describe, expect, it } from "vitest";
import { CHECK_SUITE } from "../../api/checks/engine/suite/registry.ts";
import {
  compareSite,
  comparisonProblems,
  counterpartOf,
  type LighthouseAudit,
  type SideBySideSite,
  sideBySideSection,
} from "../../scripts/catalogue/lighthouse-comparison.ts";

const audit = (id: string, score: number | null, scoreDisplayMode: string, items: number | null = null) =>
  ({ id, score, scoreDisplayMode, items }) satisfies LighthouseAudit;

function site(audits: LighthouseAudit[], verdicts: SideBySideSite["verdicts"], explanations = {}): SideBySideSite {
  return { name: "shop", verdicts, lighthouse: { version: "13.5.0", audits }, explanations };
}

const row = (rows: ReturnType<typeof compareSite>, id: string) => rows.find((candidate) => candidate.audit === id);

describe("our verdicts beside Lighthouse's agentic-browsing audits", () => {
  it("pairs each audit with the rendered check where there is one, the static one otherwise", () => {
    expect(counterpartOf("agent-accessibility-tree", CHECK_SUITE)).toBe("render.agent-tree");
    expect(counterpartOf("webmcp-schema-validity", CHECK_SUITE)).toBe("render.webmcp-valid");
    expect(counterpartOf("webmcp-registered-tools", CHECK_SUITE)).toBe("render.webmcp");
    expect(counterpartOf("llms-txt", CHECK_SUITE)).toBe("llms.exists");
    expect(counterpartOf("ard-schema", CHECK_SUITE)).toBe("catalog.ai");
  });

  it("reads a scored audit's fail as our warn or fail, its pass as our pass, its n/a as our n/a", () => {
    const rows = compareSite(
      site(
        [
          audit("agent-accessibility-tree", 0, "binary", 2),
          audit("cumulative-layout-shift", 0.74, "numeric", 1),
          audit("webmcp-schema-validity", 1, "binary"),
          audit("llms-txt", null, "notApplicable"),
        ],
        {
          "render.agent-tree": "fail",
          "render.layout-shift": "warn",
          "render.webmcp-valid": "pass",
          "llms.exists": "n/a",
        },
      ),
      CHECK_SUITE,
    );
    expect(row(rows, "agent-accessibility-tree")).toMatchObject({ lighthouse: "fail", ours: "fail", agrees: true });
    expect(row(rows, "cumulative-layout-shift")).toMatchObject({
      lighthouse: "fail (0.74)",
      ours: "warn",
      agrees: true,
    });
    expect(row(rows, "webmcp-schema-validity")).toMatchObject({ lighthouse: "pass", agrees: true });
    expect(row(rows, "llms-txt")).toMatchObject({ lighthouse: "n/a", agrees: true });
  });

  it("reads the informative audits by what they list: tools listed is our pass, none our n/a", () => {
    const listing = (items: number | null, ours: "pass" | "n/a") =>
      row(
        compareSite(
          site([audit("webmcp-registered-tools", 1, "informative", items)], { "render.webmcp": ours }),
          CHECK_SUITE,
        ),
        "webmcp-registered-tools",
      );
    expect(listing(4, "pass")).toMatchObject({ lighthouse: "lists 4", agrees: true });
    expect(listing(null, "n/a")).toMatchObject({ lighthouse: "nothing listed", agrees: true });
    expect(listing(4, "n/a")?.agrees).toBe(false);
    const coverage = compareSite(
      site([audit("webmcp-form-coverage", 1, "informative", 2)], { "render.webmcp": "pass" }),
      CHECK_SUITE,
    );
    expect(row(coverage, "webmcp-form-coverage")).toMatchObject({ lighthouse: "lists 2", agrees: true });
  });

  it("demands a sentence for every disagreement, and no sentence where the two agree", () => {
    const disagreeing = site([audit("ard-schema", 0, "binary", 1)], { "catalog.ai": "n/a" });
    expect(comparisonProblems(disagreeing, compareSite(disagreeing, CHECK_SUITE))).toEqual([
      'shop ard-schema: Lighthouse fail, catalog.ai n/a: explain it in expected.json "lighthouse"',
    ]);
    const explained = site([audit("ard-schema", 0, "binary", 1)], { "catalog.ai": "n/a" }, { "ard-schema": "Why." });
    expect(comparisonProblems(explained, compareSite(explained, CHECK_SUITE))).toEqual([]);
    const stale = site([audit("ard-schema", 1, "binary")], { "catalog.ai": "pass" }, { "ard-schema": "Why." });
    expect(comparisonProblems(stale, compareSite(stale, CHECK_SUITE))).toEqual([
      "shop ard-schema: explained, but the two now agree (or no such audit): remove the sentence",
    ]);
  });

  it("writes one table per site, with the reason in the row that differs", () => {
    const lines = sideBySideSection(
      [
        site(
          [audit("agent-accessibility-tree", 1, "binary"), audit("ard-schema", 0, "binary", 1)],
          { "render.agent-tree": "pass", "catalog.ai": "n/a" },
          { "ard-schema": "The shell answers it | with HTML." },
        ),
      ],
      CHECK_SUITE,
    );
    expect(lines).toContain("### `shop`");
    expect(lines).toContain("| `agent-accessibility-tree` | pass | `render.agent-tree` | pass | same |");
    expect(lines).toContain(
      "| `ard-schema` | fail | `catalog.ai` | n/a | differs: The shell answers it \\| with HTML. |",
    );
    expect(sideBySideSection([], CHECK_SUITE)).toEqual([]);
  });
});
