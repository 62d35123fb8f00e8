import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../helpers/admin-cli.ts";
import { startServer } from "../helpers/server-process.ts";

let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "durability-"));
  env = { DATABASE_URL: `file:${join(dir, "service.db")}`, RATE_LIMITS: "waitlist=1000000/60" };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const signup = (email: string) => JSON.stringify({ email, consent: true, consent_version: "privacy-2026-11-01" });

/** Eight lanes posting distinct sign-ups until stopped; `acknowledged` holds every one answered 202. */
function startWriters(url: string): { acknowledged: string[]; stop: () => Promise<void> } {
  const acknowledged: string[] = [];
  let stopped = false;
  let sent = 0;
  const writer = async (lane: number) => {
    while (!stopped) {
      const email = `lane${lane}-${sent++}@example.com`;
      try {
        const response = await fetch(`${url}/api/v1/waitlist`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: signup(email),
        });
        if (response.status === 202) acknowledged.push(email);
      } catch {
        // the server died mid-request: this one was never acknowledged
      }
    }
  };
  const lanes = Array.from({ length: 8 }, (_, lane) => writer(lane));
  return {
    acknowledged,
    stop: async () => {
      stopped = true;
      await Promise.all(lanes);
    },
  };
}

async function storedEmails(databaseUrl: string): Promise<{ integrity: unknown; emails: Set<string> }> {
  const client = createClient({ url: databaseUrl });
  try {
    const integrity = (await client.execute("PRAGMA integrity_check")).rows[0]?.integrity_check;
    return {
      integrity,
      emails: new Set(
        (await client.execute("SELECT email FROM waitlist_signups")).rows.map((row) => String(row.email)),
      ),
    };
  } finally {
    client.close();
  }
}

describe("a crash in the middle of writes", () => {
  it("loses nothing that was acknowledged, and leaves the database intact", async () => {
    const server = await startServer(env);
    const { acknowledged, stop } = startWriters(server.url);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await server.stop("SIGKILL");
    await stop();
    expect(acknowledged.length).toBeGreaterThan(100);

    const restarted = await startServer(env);
    expect(
      (
        await fetch(`${restarted.url}/api/v1/waitlist`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: signup("after@example.com"),
        })
      ).status,
    ).toBe(202);
    await restarted.stop();

    const { integrity, emails } = await storedEmails(env.DATABASE_URL ?? "");
    expect(integrity).toBe("ok");
    expect(acknowledged.filter((email) => !emails.has(email))).toEqual([]);
  });
});

describe("a backup while the server writes", () => {
  it("is a consistent copy holding every write acknowledged before it began, and never overwrites a file", async () => {
    const server = await startServer(env);
    const { acknowledged, stop } = startWriters(server.url);
    await new Promise((resolve) => setTimeout(resolve, 700));
    const before = [...acknowledged];
    const target = join(dir, "backups", "service-copy.db");
    const backup = await runAdmin({ DATABASE_URL: env.DATABASE_URL ?? "" }, "backup", target);
    await stop();
    await server.stop();
    expect(backup.stderr).toBe("");
    expect(backup.stdout).toMatch(/Wrote .*service-copy\.db: [\d.]+ MB, \d+ tables, integrity ok/);
    expect(before.length).toBeGreaterThan(50);
    const { integrity, emails } = await storedEmails(`file:${target}`);
    expect(integrity).toBe("ok");
    expect(before.filter((email) => !emails.has(email))).toEqual([]);

    const again = await runAdmin({ DATABASE_URL: env.DATABASE_URL ?? "" }, "backup", target);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("exists; name a new file");
    const remote = await runAdmin({ DATABASE_URL: "libsql://db.example.com" }, "backup", join(dir, "remote.db"));
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain("back up a libSQL server with its own tools");
  });
});

describe("SIGTERM while a request is in flight", () => {
  it("finishes the request, then exits cleanly", async () => {
    const server = await startServer(env);
    const { hostname, port } = new URL(server.url);
    const body = signup("in-flight@example.com");
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = request(
        {
          hostname,
          port,
          path: "/api/v1/waitlist",
          method: "POST",
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (incoming) => {
          let text = "";
          incoming.on("data", (chunk: Buffer) => (text += chunk.toString()));
          incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text }));
        },
      );
      outgoing.on("error", reject);
      // Half the body now, the rest after the server has been told to stop.
      outgoing.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill("SIGTERM");
        setTimeout(() => outgoing.end(body.slice(10)), 300);
      }, 200);
    });
    const result = await response;
    expect(result.status).toBe(202);
    expect(JSON.parse(result.text)).toEqual({ status: "received", legend: false });
    expect(await server.stop()).toBe(0);
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });
});
