import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SQLD_FLAGS } from "../../scripts/lib/sqld.ts";
import { nginxServerConfig } from "../../src/lib/nginx-conf.ts";

// The runbook's scale-out section must be what `npm run cluster` runs: the same sqld flags and the
// same nginx configuration, or an operator following it builds something the tests never ran.
const runbook = readFileSync("content/docs/operations/runbook.md", "utf8");

describe("the runbook's scale-out section", () => {
  it("starts sqld with the cluster's flags", () => {
    expect(runbook).toContain(`--no-welcome ${SQLD_FLAGS.slice(1).join(" ")}`);
    expect(SQLD_FLAGS).toEqual(["--no-welcome", "--use-custom-wal", "libsql-wal"]);
  });

  it("shows the nginx.conf the cluster writes, line for line bar its own files", () => {
    const shown = /```nginx\n([\s\S]*?)```/.exec(runbook)?.[1] ?? "";
    const written = nginxServerConfig({
      listen: "127.0.0.1:4321",
      root: "/srv/agentready/dist/client",
      instances: ["127.0.0.1:4322", "127.0.0.1:4323"],
      workDir: "/work-dir",
      routesFile: "/srv/agentready/dist/nginx/routes.conf",
    });
    const own = (line: string) => line.includes("/work-dir") || line === "daemon off;" || line.startsWith("# Written");
    const lines = written
      .split("\n")
      .filter((line) => !own(line.trim()))
      .join("\n");
    expect(shown.trim()).toBe(lines.trim());
  });
});
