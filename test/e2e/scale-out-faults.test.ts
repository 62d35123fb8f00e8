import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRIVACY_VERSION } from "../helpers/agents.ts";
import { type ScaleOut, startScaleOut } from "../helpers/scale-out.ts";
import type { RunningServer } from "../helpers/server-process.ts";

// Failures of the scale-out deployment with real processes: an instance killed under write load,
// and the libSQL server itself stopped under load and started again.
let stack: ScaleOut;
beforeAll(async () => {
  stack = await startScaleOut("faults", { RATE_LIMITS: "waitlist=1000000/60" });
});
afterAll(() => stack?.stop());

const signup = (email: string) => JSON.stringify({ email, consent: true, consent_version: PRIVACY_VERSION });

interface Writers {
  acknowledged: string[];
  /** Every status answered, and how long the slowest request took. */
  statuses: Map<number, number>;
  slowestMs: number;
  stop: () => Promise<void>;
}

/** Eight lanes posting distinct sign-ups to `servers` in turn until stopped. */
function startWriters(servers: RunningServer[], tag: string): Writers {
  const writers: Writers = { acknowledged: [], statuses: new Map(), slowestMs: 0, stop: async () => {} };
  let stopped = false;
  let sent = 0;
  const lane = async (index: number) => {
    while (!stopped) {
      const email = `${tag}-${index}-${sent++}@example.com`;
      const server = servers[sent % servers.length] as RunningServer;
      const started = Date.now();
      try {
        const response = await fetch(`${server.url}/api/v1/waitlist`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: signup(email),
          signal: AbortSignal.timeout(15_000),
        });
        await response.arrayBuffer();
        writers.statuses.set(response.status, (writers.statuses.get(response.status) ?? 0) + 1);
        if (response.status === 202) writers.acknowledged.push(email);
      } catch {
        // the instance died mid-request: this one was never acknowledged
      }
      writers.slowestMs = Math.max(writers.slowestMs, Date.now() - started);
    }
  };
  const lanes = Array.from({ length: 8 }, (_, index) => lane(index));
  writers.stop = async () => {
    stopped = true;
    await Promise.all(lanes);
  };
  return writers;
}

async function storedEmails(): Promise<Set<string>> {
  const rows = (await stack.db.execute("SELECT email FROM waitlist_signups")).rows;
  return new Set(rows.map((row) => String(row.email)));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the scale-out deployment under failures", () => {
  it("loses no acknowledged write when one instance is killed under load; the other and the front keep answering", async () => {
    const [victim, survivor] = stack.instances as [RunningServer, RunningServer];
    const writers = startWriters([victim, survivor], "kill");
    await pause(1_500);
    await victim.stop("SIGKILL");
    await pause(1_000);
    await writers.stop();
    expect(writers.acknowledged.length).toBeGreaterThan(50);
    const stored = await storedEmails();
    expect(writers.acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    // The front skips the dead instance: live answers and static files keep coming.
    for (let round = 0; round < 4; round++) {
      expect((await fetch(`${stack.front.url}/api/v1/config`)).status).toBe(200);
      expect((await fetch(`${stack.front.url}/docs/quickstart`)).status).toBe(200);
    }
    const after = await fetch(`${survivor.url}/api/v1/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: signup("after-kill@example.com"),
    });
    expect(after.status).toBe(202);
  });

  it("answers 503 problems while sqld is down, keeps static files and /health, and takes writes again once it is back", async () => {
    const survivor = stack.instances[1] as RunningServer;
    const writers = startWriters([survivor], "outage");
    await pause(1_000);
    const before = writers.acknowledged.length;
    await stack.sqld.stop();
    await pause(2_000);

    const refused = await fetch(`${survivor.url}/api/v1/waitlist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: signup("during@example.com"),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await fetch(`${survivor.url}/health`)).status).toBe(200);
    expect((await fetch(`${stack.front.url}/docs/quickstart`)).status).toBe(200);
    expect((await fetch(`${survivor.url}/api/v1/docs`)).status).toBe(200);
    const status = (await (await fetch(`${stack.front.url}/status.json`)).json()) as {
      components: Record<string, string>;
    };
    expect(status.components.database).toBe("unavailable");
    // The capabilities file leaves the writes out and says why.
    const capabilities = (await (await fetch(`${stack.front.url}/capabilities.json`)).json()) as {
      capabilities: { endpoint: string }[];
      unavailable: { capability: string; reason: string }[];
    };
    expect(capabilities.capabilities.map((capability) => capability.endpoint).join(" ")).not.toContain(
      "/api/v1/waitlist",
    );
    expect(capabilities.unavailable).toContainEqual({ capability: "waitlist.join", reason: "database is unavailable" });

    await stack.sqld.start();
    await expect
      .poll(
        async () =>
          (
            await fetch(`${survivor.url}/api/v1/waitlist`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: signup(`back-${Date.now()}@example.com`),
            })
          ).status,
        { timeout: 10_000, interval: 200 },
      )
      .toBe(202);
    await pause(500);
    await writers.stop();
    expect(writers.acknowledged.length).toBeGreaterThan(before);
    // Only answers a client can act on: accepted, or refused for now (never a 500), none hanging.
    expect([...writers.statuses.keys()].sort()).toEqual([202, 503]);
    expect(writers.slowestMs).toBeLessThan(10_000);
    const stored = await storedEmails();
    expect(writers.acknowledged.filter((email) => !stored.has(email))).toEqual([]);
  });
});
