import { afterAll, beforeAll, describe, it } from "vitest";
import { expectEachDueMonitorRunOnce } from "../helpers/monitor-race.ts";
import { type ChangingSite, startChangingSite } from "../helpers/monitors.ts";
import { type ScaleOut, startScaleOut } from "../helpers/scale-out.ts";

/** The same race as on one embedded file, on the runbook's deployment: two instances on a real sqld. */
let cluster: ScaleOut;
const sites: ChangingSite[] = [];

beforeAll(async () => {
  for (let index = 0; index < 4; index++) sites.push(await startChangingSite("exemplary"));
  cluster = await startScaleOut("monitors", {
    CHECKS_ALLOWED_TARGETS: sites.map((site) => site.hostPort).join(","),
    MONITORS_INTERVAL_MS: "100",
    MONITORS_CONCURRENCY: "3",
    RATE_LIMITS: "monitors=1000/60",
    LOG_LEVEL: "warn",
  });
}, 180_000);
afterAll(async () => {
  await cluster?.stop();
  await Promise.all(sites.map((site) => site.close()));
});

describe("two instances and the staff command on a libSQL server", () => {
  it("run each due monitor exactly once: one claim, one check, one recorded run", async () => {
    await expectEachDueMonitorRunOnce(
      cluster.instances.map((instance) => instance.url),
      cluster.env,
      cluster.db,
      sites,
    );
  }, 180_000);
});
