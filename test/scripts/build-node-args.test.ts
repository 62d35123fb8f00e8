import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { BUILD_NODE_ARGS } from "../../scripts/lib/build-node-args.ts";

describe("the build's Node arguments", () => {
  it("are the same for `npm run build` as for the scripts that start a build (demo, start, bench)", async () => {
    const manifest = JSON.parse(await readFile("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(manifest.scripts.build).toBe(`node ${BUILD_NODE_ARGS.join(" ")} scripts/build.ts`);
  });
});
