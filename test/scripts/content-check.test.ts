import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const fixtures = join(import.meta.dirname, "..", "fixtures", "content");

async function contentCheck(root: string): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, ["scripts/content-check.ts", root]);
    return { code: 0, stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, stdout: failed.stdout };
  }
}

describe("npm run content:check", () => {
  it("prints every problem as path: field: message and exits 1", async () => {
    const { code, stdout } = await contentCheck(join(fixtures, "broken"));
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n");
    expect(lines.length).toBe(22);
    for (const line of lines) expect(line).toMatch(/^content\/[^:]+: [^:]+: .+/);
  });

  it("exits 0 and says so when everything is valid", async () => {
    const { code, stdout } = await contentCheck(join(fixtures, "valid"));
    expect(code).toBe(0);
    expect(stdout).toContain("Content is valid");
  });
});
