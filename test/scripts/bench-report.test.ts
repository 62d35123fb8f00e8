import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { niceCeiling, throughputAndLatencyChart } from "../../scripts/bench/lib/chart.ts";
import { type BenchmarksReport, writeBenchmarksPage } from "../../scripts/bench/lib/docs-page.ts";
import { formatIssue } from "../../src/content/issues.ts";
import { loadContent } from "../../src/content/load-content.ts";

const report = (value: string): BenchmarksReport => ({
  machine: "2 × Test CPU, 24 GiB, Node v20.20.2, linux",
  generator: "wrk (1 thread)",
  sections: [
    {
      title: "Serving",
      rows: [
        {
          metric: "GET /docs/store",
          value,
          baseline: "10,000 req/s (bare node:http)",
          target: "≥ 70 % of baseline",
          met: true,
        },
      ],
      figure: { src: "/benchmarks/mixed.svg", alt: "Throughput and p99" },
      notes: ["Median of five rounds."],
    },
  ],
});

describe("the benchmark chart", () => {
  it("rounds axes up to 1, 2, 2.5 or 5 times a power of ten", () => {
    expect([
      niceCeiling(0),
      niceCeiling(7),
      niceCeiling(13),
      niceCeiling(4_100),
      niceCeiling(50),
      niceCeiling(23_554),
    ]).toEqual([1, 10, 20, 5_000, 50, 25_000]);
  });

  it("draws one line per series in each panel, scaled so the largest value meets the axis top", () => {
    const svg = throughputAndLatencyChart(
      "Mixed <load>",
      [1, 4, 16, 64],
      [
        { name: "service", throughput: [1_000, 3_000, 4_000, 3_500], p99Ms: [2, 5, 12, 40] },
        { name: "baseline", throughput: [2_000, 8_000, 10_000, 9_000], p99Ms: [1, 2, 4, 10] },
      ],
    );
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    expect(svg.match(/<circle /g)).toHaveLength(16);
    // 10,000 req/s is the throughput axis top (y = 34), 0 its bottom (y = 180); the first point is at x = 64.
    expect(svg).toContain('points="64.0,165.4 150.7,136.2 237.3,121.6 324.0,128.9"');
    expect(svg).toContain("<title>baseline, 4 connections: 8,000 req/s</title>");
    expect(svg).toContain("Mixed &#60;load&#62;");
    expect(svg).not.toContain("<load>");
    expect(svg).toContain("service: 1 connections 1000 req/s, p99 2 ms");
  });
});

describe("the benchmarks docs page", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "bench-page-"));
    await cp(join(import.meta.dirname, "..", "fixtures", "content", "valid"), root, { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("is valid content with the tables, the chart and the machine", async () => {
    const file = await writeBenchmarksPage(root, report("9,000 req/s = 90 %"), new Date("2026-11-20T12:00:00.000Z"));
    const { content, issues } = loadContent({ root });
    expect(issues.map(formatIssue)).toEqual([]);
    const page = content?.docs.find((doc) => doc.path === "operations/benchmarks");
    expect(page?.data.version).toBe("operations--benchmarks-2026-11-20");
    const source = await readFile(file, "utf8");
    expect(source).toContain(
      "| GET /docs/store | 9,000 req/s = 90 % | 10,000 req/s (bare node:http) | ≥ 70 % of baseline | yes |",
    );
    expect(source).toContain("![Throughput and p99](/benchmarks/mixed.svg)");
    expect(source).toContain("2 × Test CPU, 24 GiB");
  });

  it("keeps an earlier day's results on record and replaces a same-day run in place", async () => {
    await writeBenchmarksPage(root, report("first"), new Date("2026-11-20T12:00:00.000Z"));
    await writeBenchmarksPage(root, report("second"), new Date("2026-11-22T09:00:00.000Z"));
    await writeBenchmarksPage(root, report("third"), new Date("2026-11-22T18:00:00.000Z"));
    const { content, issues } = loadContent({ root });
    expect(issues.map(formatIssue)).toEqual([]);
    const page = content?.docs.find((doc) => doc.path === "operations/benchmarks");
    expect(page?.data.version).toBe("operations--benchmarks-2026-11-22");
    expect(page?.body).toContain("| third |");
    expect(page?.archive.map((entry) => entry.data.version)).toEqual(["operations--benchmarks-2026-11-20"]);
    expect(page?.archive[0]?.body).toContain("| first |");
  });
});
