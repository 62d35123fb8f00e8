import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SQLD_FLAGS, sqldBinary } from "../../scripts/lib/sqld.ts";
import { apiBodyLimits } from "../../scripts/lib/static-front.ts";
import { nginxServerConfig } from "../../src/lib/nginx-conf.ts";

// The runbook's scale-out section must be what `npm run cluster` runs: the same sqld flags and the
// same nginx configuration, or an operator following it builds something the tests never ran.
const runbook = readFileSync("content/docs/operations/runbook.md", "utf8");

describe("the runbook's scale-out section", () => {
  it("starts sqld with the cluster's flags", () => {
    expect(runbook).toContain(`--no-welcome ${SQLD_FLAGS.slice(1).join(" ")}`);
    expect(SQLD_FLAGS).toEqual(["--no-welcome", "--use-custom-wal", "libsql-wal"]);
  });

  it("requires a token on sqld with a flag sqld has (its own --help), as the cluster starts it", () => {
    const help = execFileSync(sqldBinary(), ["--help"], { encoding: "utf8" });
    expect(help).toContain("--auth-jwt-key-file <AUTH_JWT_KEY_FILE>");
    expect(runbook).toContain("--auth-jwt-key-file data/cluster/sqld-auth/sqld-auth.pub.pem");
    expect(runbook).toContain("umask 0077 && npx sqld");
  });

  it("shows the nginx.conf the cluster writes, line for line bar its own files", () => {
    const shown = /```nginx\n([\s\S]*?)```/.exec(runbook)?.[1] ?? "";
    const written = nginxServerConfig({
      listen: "127.0.0.1:4321",
      root: "/srv/agentready/dist/client",
      instances: ["127.0.0.1:4322", "127.0.0.1:4323"],
      workDir: "/var/log/agentready",
      routesFile: "/srv/agentready/dist/nginx/routes.conf",
      siteUrl: "https://agents.example.com",
      bodyLimits: apiBodyLimits({}),
    });
    // The cluster's own files (pid, temp directories) and foreground mode; the logs are shown.
    const own = (line: string) => /_temp_path |^pid |^daemon off;|^# Written/.test(line);
    const lines = written
      .split("\n")
      .filter((line) => !own(line.trim()))
      .join("\n");
    expect(shown.trim()).toBe(lines.trim());
  });
});
