import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatIssue } from "../../src/content/issues.ts";
import { loadContent } from "../../src/content/load-content.ts";
import { PublishError, publishNewVersion } from "../../src/content/publish-fs.ts";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "publish-"));
  await cp(join(import.meta.dirname, "..", "fixtures", "content", "valid"), root, { recursive: true });
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("publishing a new version", () => {
  it("keeps the superseded doc version on record and stamps the new one", async () => {
    const now = new Date("2026-11-20T12:00:00.000Z");
    const result = await publishNewVersion(root, "docs/guide/deep/er/page", now);
    expect(result).toMatchObject({ previousVersion: "guide--deep--er--page-2026-11-01", version: "guide--deep--er--page-2026-11-20", publishedAt: now.toISOString() });

    const archived = await readFile(join(root, "content/archive/docs/guide--deep--er--page/guide--deep--er--page-2026-11-01.md"), "utf8");
    expect(archived).toContain('path: "guide/deep/er/page"');
    expect(archived).toContain('superseded_at: "2026-11-20T12:00:00.000Z"');
    expect(archived).toContain("Body of Deep page.");

    const { content, issues } = loadContent({ root });
    expect(issues.map(formatIssue)).toEqual([]);
    const page = content?.docs.find((doc) => doc.path === "guide/deep/er/page");
    expect(page?.data.version).toBe("guide--deep--er--page-2026-11-20");
    expect(page?.archive.map((entry) => entry.data.version)).toEqual(["guide--deep--er--page-2026-11-01"]);
  });

  it("keeps a page's whole history, newest archived first", async () => {
    await publishNewVersion(root, "docs/ref", new Date("2026-11-10T08:00:00.000Z"));
    await publishNewVersion(root, "docs/ref.md", new Date("2026-11-15T08:00:00.000Z"));
    const { content, issues } = loadContent({ root });
    expect(issues).toEqual([]);
    expect(content?.docs.find((doc) => doc.path === "ref")?.archive.map((entry) => entry.data.version)).toEqual(["ref-2026-11-10", "ref-2026-11-02", "ref-2026-10-01"]);
  });

  it("refuses a second doc version on the same day, changing nothing", async () => {
    const before = await readFile(join(root, "content/docs/guide.md"), "utf8");
    await expect(publishNewVersion(root, "docs/guide", new Date("2026-11-01T18:00:00.000Z"))).rejects.toThrow(PublishError);
    expect(await readFile(join(root, "content/docs/guide.md"), "utf8")).toBe(before);
  });

  it("numbers a same-day privacy revision with .N, which consent_version accepts", async () => {
    const result = await publishNewVersion(root, "policies/privacy", new Date("2026-11-01T18:00:00.000Z"));
    expect(result.version).toBe("privacy-2026-11-01.1");
    const { content, issues } = loadContent({ root });
    expect(issues).toEqual([]);
    expect(content?.policies.find((policy) => policy.key === "privacy")?.archive[0]?.data.version).toBe("privacy-2026-11-01");
  });

  it("names what it cannot publish", async () => {
    await expect(publishNewVersion(root, "docs/nothing-here")).rejects.toThrow("No such file: content/docs/nothing-here.md");
    await expect(publishNewVersion(root, "articles/hello")).rejects.toThrow("Name a doc page or a policy");
  });
});
