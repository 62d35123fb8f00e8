import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { Started } from "../../scripts/bench/lib/processes.ts";
import { Supervised } from "../../scripts/lib/supervisor.ts";

// The backoff of `npm run cluster`'s restarts, on real processes (`sleep`, killed by the test), at
// a tenth of the real delays: 0.1 s doubling to 0.4 s, back to 0.1 s after 1 s up.
const backoff = { firstMs: 100, maxMs: 400, stableMs: 1_000 };

function launchSleep(): Promise<Started> {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  return Promise.resolve({
    url: `pid ${child.pid}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
    rssMb: () => Promise.resolve(0),
  });
}

function supervisedSleep() {
  const lines: string[] = [];
  const supervised = new Supervised({
    name: "sleeper",
    logFile: "/var/log/sleeper.log",
    launch: launchSleep,
    say: (line) => lines.push(line),
    backoff,
  });
  return { supervised, lines };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Kills the running process and waits until it is back; the delay the supervisor announced. */
async function killAndAwaitReturn(supervised: Supervised, lines: string[]): Promise<string> {
  const before = supervised.current;
  before?.child.kill("SIGKILL");
  await expect
    .poll(() => supervised.current !== undefined && supervised.current !== before, { timeout: 5_000, interval: 20 })
    .toBe(true);
  return lines.filter((line) => line.startsWith("Starting sleeper again")).at(-1) ?? "";
}

describe("a supervised process", () => {
  it("is started again after each death, the wait doubling up to a cap and back to the first once it stayed up", async () => {
    const { supervised, lines } = supervisedSleep();
    const first = await supervised.start();
    try {
      const waits: string[] = [];
      for (let death = 0; death < 4; death++) waits.push(await killAndAwaitReturn(supervised, lines));
      expect(waits).toEqual([0.1, 0.2, 0.4, 0.4].map((s) => `Starting sleeper again in ${s} s.`));
      await pause(backoff.stableMs + 100);
      expect(await killAndAwaitReturn(supervised, lines)).toBe("Starting sleeper again in 0.1 s.");
      expect(lines[0]).toMatch(
        new RegExp(
          `^sleeper \\(pid ${first.child.pid}\\) was killed by SIGKILL after [\\d.]+ s up; its log: /var/log/sleeper.log.$`,
        ),
      );
      expect(lines).toContain(
        `sleeper is back (pid ${supervised.current?.child.pid}) at pid ${supervised.current?.child.pid}.`,
      );
    } finally {
      await supervised.stop();
    }
  });

  it("stays down once stopped, and says nothing", async () => {
    const { supervised, lines } = supervisedSleep();
    const started = await supervised.start();
    await supervised.stop();
    expect(started.child.signalCode).toBe("SIGTERM");
    await pause(backoff.firstMs * 2);
    expect(supervised.current).toBeUndefined();
    expect(lines).toEqual([]);
  });
});
