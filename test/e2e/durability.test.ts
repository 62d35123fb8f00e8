import { request } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../helpers/server-process.ts";

let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "durability-"));
  env = { DATABASE_URL: `file:${join(dir, "service.db")}`, RATE_LIMITS: "waitlist=1000000/60" };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const signup = (email: string) => JSON.stringify({ email, consent: true, consent_version: "privacy-2026-11-01" });

describe("a crash in the middle of writes", () => {
  it("loses nothing that was acknowledged, and leaves the database intact", async () => {
    const server = await startServer(env);
    const acknowledged: string[] = [];
    let stop = false;
    let sent = 0;
    const writer = async (lane: number) => {
      while (!stop) {
        const email = `lane${lane}-${sent++}@example.com`;
        try {
          const response = await fetch(`${server.url}/api/v1/waitlist`, { method: "POST", headers: { "content-type": "application/json" }, body: signup(email) });
          if (response.status === 202) acknowledged.push(email);
        } catch {
          // the server died mid-request: this one was never acknowledged
        }
      }
    };
    const lanes = Array.from({ length: 8 }, (_, lane) => writer(lane));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await server.stop("SIGKILL");
    stop = true;
    await Promise.all(lanes);
    expect(acknowledged.length).toBeGreaterThan(100);

    const restarted = await startServer(env);
    expect((await fetch(`${restarted.url}/api/v1/waitlist`, { method: "POST", headers: { "content-type": "application/json" }, body: signup("after@example.com") })).status).toBe(202);
    await restarted.stop();

    const client = createClient({ url: env.DATABASE_URL ?? "" });
    expect((await client.execute("PRAGMA integrity_check")).rows[0]?.integrity_check).toBe("ok");
    const stored = new Set((await client.execute("SELECT email FROM waitlist_signups")).rows.map((row) => String(row.email)));
    const missing = acknowledged.filter((email) => !stored.has(email));
    client.close();
    expect(missing).toEqual([]);
  });
});

describe("SIGTERM while a request is in flight", () => {
  it("finishes the request, then exits cleanly", async () => {
    const server = await startServer(env);
    const { hostname, port } = new URL(server.url);
    const body = signup("in-flight@example.com");
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const outgoing = request({ hostname, port, path: "/api/v1/waitlist", method: "POST", headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (incoming) => {
        let text = "";
        incoming.on("data", (chunk: Buffer) => (text += chunk.toString()));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, text }));
      });
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
