import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatIssue } from "../../src/content/issues.ts";
import { loadContent } from "../../src/content/load-content.ts";

const fixtures = join(import.meta.dirname, "..", "fixtures", "content");

describe("loading content", () => {
  it("loads a complete valid tree with no problems", () => {
    const { content, issues } = loadContent({ root: join(fixtures, "valid") });
    expect(issues).toEqual([]);
    expect(content?.docs.map((doc) => doc.path).sort()).toEqual(["guide", "guide/deep/er/page", "ref"]);
    expect(content?.docs.find((doc) => doc.path === "ref")?.archive.map((entry) => entry.data.version)).toEqual(["ref-2026-10-01"]);
    expect(content?.policies.map((policy) => policy.key).sort()).toEqual(["legend", "privacy"]);
    expect(content?.skills[0]?.raw.toString("utf8")).toContain("name: demo-skill");
  });

  it("reads a product's size and preview from the file buyers get", () => {
    const { content } = loadContent({ root: join(fixtures, "valid") });
    const kit = content?.products.find((product) => product.id === "kit");
    expect(kit?.download).toEqual({ bytes: 14, sample: { text: "The kit file.", firstLine: 1, lastLine: 1 } });
    expect(content?.products.find((product) => product.id === "review")?.download).toBeNull();
  });

  it("lists every problem of a broken tree, each with its file and field", () => {
    const { issues } = loadContent({ root: join(fixtures, "broken") });
    expect(issues.map(formatIssue).sort()).toMatchInlineSnapshot(`
      [
        "content/archive/docs/ref/ref-2026-12-01.md: superseded_at: must not be later than 2026-11-02T10:00:00.000Z, when ref-2026-11-02 was published",
        "content/articles/unclosed.md: frontmatter: cannot be parsed: Missing closing "quote at line 3, column 19:",
        "content/docs/Bad_Path.md: (file): its path must be lower-case segments of a-z, 0-9 and single hyphens",
        "content/docs/a/b/c/d/e.md: (file): its path has 5 segments; doc paths have at most 4",
        "content/docs/bad-version.md: version: its date 2026-11-05 does not match published_at (2026-11-01)",
        "content/docs/no-millis.md: published_at: must be an ISO 8601 UTC time with milliseconds, e.g. 2026-11-01T09:00:00.000Z",
        "content/docs/ref.md: published_at: must be later than 2026-12-01T10:00:00.000Z, when the previous version ref-2026-12-01 was published",
        "content/docs/untitled.md: title: is required",
        "content/docs/untitled.md: tittle: is not a known field",
        "content/policies/privacy.md: version: must be privacy-YYYY-MM-DD (optionally .N), e.g. privacy-2026-11-01",
        "content/products/bare-file.md: contents: a file needs its contents listed for buyers",
        "content/products/bare-file.md: format: a file needs its format, as a buyer names it",
        "content/products/broken-item.md: file: an item needs a file to deliver",
        "content/products/broken-item.md: price.amount: must not be negative",
        "content/products/broken-item.md: price.currency: must be a lower-case ISO 4217 code such as eur",
        "content/products/kit.md: sample.from: no line of kit.txt contains "a line the file does not have"",
        "content/products/return.md: (file): return is a store page's address; name the product otherwise",
        "content/records/muddled.md: claims.1.label: must be one of: observed, inferred, proposed, unknown, superseded",
        "content/resources/odd.md: kind: must be one of: agent, service, software, guide, directory",
        "content/resources/odd.md: url: must be an absolute http(s) URL",
        "content/roadmap.yaml: items.0.target_date: only committed items carry a date",
        "content/skills/wrong-name/SKILL.md: name: must equal the directory name (wrong-name)",
      ]
    `);
  });

  it("accepts the project's own content", () => {
    const { content, issues } = loadContent({ root: process.cwd() });
    expect(issues.map(formatIssue)).toEqual([]);
    expect(content?.docs.length).toBeGreaterThanOrEqual(12);
    expect(content?.docs.some((doc) => doc.path.split("/").length === 4)).toBe(true);
    expect(content?.docs.some((doc) => doc.archive.length > 0)).toBe(true);
  });
});
