import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitorsCommand } from "../../scripts/admin/monitors.ts";
import { runAdminCommand } from "../helpers/admin-cli.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { type ChangingSite, startChangingSite } from "../helpers/monitors.ts";

let t: TestApp;
let site: ChangingSite;
let saved: NodeJS.ProcessEnv;

beforeAll(async () => {
  site = await startChangingSite("blog");
  t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: site.hostPort } });
  saved = { ...process.env };
  // The commands read their configuration from the environment, as `npm run admin` does.
  Object.assign(process.env, {
    DATABASE_URL: t.config.database.url,
    CHECKS_ALLOWED_TARGETS: site.hostPort,
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
  });
});
afterAll(async () => {
  process.env = saved;
  await t?.close();
  await site?.close();
});

const monitors = (...args: string[]) => runAdminCommand(monitorsCommand, ...args);

describe("npm run admin -- monitors", () => {
  it("runs what is due, lists monitors with their runs, and stops one", async () => {
    const agent = await t.services.agents.register(
      { agent_name: "Staff test", agent_type: "test", operator_type: "company" },
      "staff",
      ["monitors:write"],
    );
    await t.services.monitors.createForAgent(agent.agent.id, { domain: site.origin });
    expect((await monitors("run-due")).stdout).toBe("Recorded 1 run, queued 0 alerts.");
    expect((await monitors("run-due")).stdout).toBe("Recorded 0 runs, queued 0 alerts.");
    const [listed] = JSON.parse((await monitors("list", "--json")).stdout) as Record<string, unknown>[];
    expect(listed).toMatchObject({
      domain: new URL(site.origin).host,
      state: "active",
      runs: 1,
      owner: agent.agent.id,
    });
    expect((await monitors("stop", String(listed?.id))).stdout).toBe(`Stopped watching ${new URL(site.origin).host}.`);
    const again = await monitors("stop", String(listed?.id));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("No running monitor");
    expect(JSON.parse((await monitors("list", "--state", "stopped", "--json")).stdout)).toHaveLength(1);
    expect((await monitors("list", "--state", "sleeping")).stderr).toBe(
      "Unknown state sleeping; states: pending, active, stopped",
    );
  });
});
