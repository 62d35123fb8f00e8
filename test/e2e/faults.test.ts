import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../helpers/server-process.ts";

const signup = (email: string) => JSON.stringify({ email, consent: true, consent_version: "privacy-2026-11-01" });
const join202 = (url: string, email: string) =>
  fetch(`${url}/api/v1/waitlist`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: signup(email),
  }).then((response) => response.status);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "faults-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("a full disk under the database", () => {
  it("answers 503 (never 500) while no space is left, loses nothing acknowledged, and recovers when space returns", async () => {
    const mountPoint = join(dir, "tiny");
    await mkdir(mountPoint);
    // A real, small filesystem (root can mount a tmpfs here and in CI); the database lives on it.
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mountPoint]);
    try {
      const server = await startServer({
        DATABASE_URL: `file:${join(mountPoint, "service.db")}`,
        RATE_LIMITS: "waitlist=1000000/60",
      });
      const acknowledged: string[] = [];
      try {
        const statuses = new Map<number, number>();
        // Long addresses fill the disk quickly; stop once the disk has clearly been full for a while.
        for (let index = 0; index < 6000 && (statuses.get(503) ?? 0) < 30; index++) {
          const email = `${"x".repeat(180)}${index}@example.com`;
          const status = await join202(server.url, email);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 202) acknowledged.push(email);
        }
        expect([...statuses.keys()].sort()).toEqual([202, 503]);
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        expect((await (await fetch(`${server.url}/docs/store`)).text()).length).toBeGreaterThan(1000);

        execFileSync("mount", ["-o", "remount,size=16m", mountPoint]);
        await expect.poll(() => join202(server.url, "after-space@example.com"), { timeout: 10_000 }).toBe(202);
      } finally {
        // Stopped on every path: a server left running would answer the next test on the same port.
        await server.stop();
      }

      const client = createClient({ url: `file:${join(mountPoint, "service.db")}` });
      expect((await client.execute("PRAGMA integrity_check")).rows[0]?.integrity_check).toBe("ok");
      const stored = new Set(
        (await client.execute("SELECT email FROM waitlist_signups")).rows.map((row) => String(row.email)),
      );
      client.close();
      expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    } finally {
      execFileSync("umount", ["-l", mountPoint]);
    }
  });
});

describe("the database file going away", () => {
  it("turns dependent endpoints into 503s, shows it, and recovers without a restart", async () => {
    const path = join(dir, "away.db");
    const server = await startServer({ DATABASE_URL: `file:${path}` });
    try {
      expect(await join202(server.url, "before@example.com")).toBe(202);
      await rename(path, `${path}.moved`);
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${server.url}/status.json`)).json()) as { components: { database: string } })
              .components.database,
          { timeout: 5_000 },
        )
        .toBe("unavailable");
      expect(await join202(server.url, "during@example.com")).toBe(503);
      const capabilities = (await (await fetch(`${server.url}/capabilities.json`)).json()) as {
        capabilities: { id: string }[];
      };
      expect(capabilities.capabilities.map((capability) => capability.id)).not.toContain("waitlist.join");
      await rename(`${path}.moved`, path);
      await expect.poll(() => join202(server.url, "after@example.com"), { timeout: 5_000 }).toBe(202);
    } finally {
      await server.stop();
    }
  });
});

describe("SIGTERM under load", () => {
  it("lets every request already in flight finish, then exits 0", async () => {
    const server = await startServer({
      DATABASE_URL: `file:${join(dir, "term.db")}`,
      RATE_LIMITS: "waitlist=1000000/60",
    });
    const { hostname, port } = new URL(server.url);
    const inFlight = Array.from({ length: 40 }, (_, index) => {
      const body = signup(`load${index}@example.com`);
      return new Promise<number>((resolve, reject) => {
        const outgoing = request(
          {
            hostname,
            port,
            path: "/api/v1/waitlist",
            method: "POST",
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
          },
          (incoming) => {
            incoming.resume();
            incoming.on("end", () => resolve(incoming.statusCode ?? 0));
          },
        );
        outgoing.on("error", reject);
        outgoing.write(body.slice(0, 5));
        // The rest of each body arrives after the signal.
        setTimeout(() => outgoing.end(body.slice(5)), 400);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    server.process.kill("SIGTERM");
    expect(await Promise.all(inFlight)).toEqual(Array(40).fill(202));
    expect(await server.stop()).toBe(0);
  });
});

describe("kill -9 in the middle of writes", () => {
  it("restarts with an intact database that holds every registration it acknowledged", async () => {
    const databaseUrl = `file:${join(dir, "kill.db")}`;
    const env = { DATABASE_URL: databaseUrl, RATE_LIMITS: "agent-register=1000000/3600" };
    const server = await startServer(env);
    const acknowledged: string[] = [];
    let killed = false;
    /** True when the server answered (201 or not); false when the connection died with the process. */
    const register = async (index: number): Promise<boolean> => {
      try {
        const response = await fetch(`${server.url}/api/v1/agents/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ agent_name: `crash-${index}`, agent_type: "test", operator_type: "individual" }),
        });
        if (response.status === 201) acknowledged.push(((await response.json()) as { token: string }).token);
        return true;
      } catch {
        return false; // not acknowledged, so not promised
      }
    };
    // Eight writers keep the stream going until the process is killed without warning; each stops
    // at its first request that gets no answer. (Whether one was in flight at the very instant is
    // a race: the server may have answered all eight just before, and that must pass too.)
    const writers = Array.from({ length: 8 }, async (_, writer) => {
      for (let index = 0; ; index++) if (!(await register(writer * 1_000_000 + index)) && killed) return;
    });
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    server.process.kill("SIGKILL");
    killed = true;
    await Promise.all(writers);
    expect(acknowledged.length).toBeGreaterThan(20);

    const client = createClient({ url: databaseUrl });
    expect((await client.execute("PRAGMA integrity_check")).rows[0]?.integrity_check).toBe("ok");
    client.close();
    const restarted = await startServer(env);
    const standings = await Promise.all(
      acknowledged.map((token) =>
        fetch(`${restarted.url}/api/v1/agents/me`, { headers: { authorization: `Bearer ${token}` } }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(standings.filter((status) => status !== 200)).toEqual([]);
    expect(await restarted.stop()).toBe(0);
  }, 60_000);
});
