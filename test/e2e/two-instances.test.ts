import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/free-port.ts";
import { PRIVACY_VERSION, validEntry } from "../helpers/agents.ts";
import { entryArgs } from "../helpers/entry.ts";
import { insertLockedReports, lookupKeysOf } from "../helpers/reports.ts";
import { type RunningServer, startServer } from "../helpers/server-process.ts";

let first: RunningServer;
let second: RunningServer;
let dir: string;
let databaseUrl: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "two-"));
  databaseUrl = `file:${join(dir, "service.db")}`;
  const shared = {
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_STORE: "database",
    TRUST_PROXY: "true",
    RATE_LIMITS: "waitlist=6/60",
  };
  first = await startServer(shared);
  second = await startServer({ ...shared, PORT: String(await freePort()) });
});
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  await rm(dir, { recursive: true, force: true });
});

const post = (server: RunningServer, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
const both = <T>(count: number, task: (server: RunningServer, index: number) => Promise<T>) =>
  Promise.all(Array.from({ length: count }, (_, index) => task(index % 2 === 0 ? first : second, index)));

describe("two server processes on one database", () => {
  it("let exactly one of 40 simultaneous waiting-list entries of one agent through", async () => {
    const registered = (await (
      await post(
        first,
        "/api/v1/agents/register",
        { agent_name: "Twin", agent_type: "bot", operator_type: "company" },
        { "x-forwarded-for": "203.0.113.70" },
      )
    ).json()) as { token: string };
    const statuses = await both(40, (server, index) =>
      post(server, "/api/v1/agents/waitlist", validEntry, {
        authorization: `Bearer ${registered.token}`,
        "x-forwarded-for": `203.0.113.${index}`,
      }).then((response) => response.status),
    );
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409 || status === 429)).toBe(true);
    const client = createClient({ url: databaseUrl });
    expect(Number((await client.execute("SELECT COUNT(*) AS n FROM agent_waitlist_entries")).rows[0]?.n)).toBe(1);
    client.close();
  });

  it("spend a three-credit code on exactly three of twelve reports redeemed through both", async () => {
    // Reports straight into the shared database (checking a site needs an allowance; this is about the credits).
    const client = createClient({ url: databaseUrl });
    const reports = await insertLockedReports(client, await lookupKeysOf(databaseUrl), 12);
    client.close();
    const { execFile } = await import("node:child_process");
    const issued = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [...entryArgs("admin"), "credits", "issue", "3"],
        { env: { ...process.env, DATABASE_URL: databaseUrl } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    const code = /Code:\s+(\S+)/.exec(issued)?.[1] ?? "";
    const statuses = await both(12, (server, index) =>
      post(
        server,
        `/api/v1/checks/${reports[index]}/redeem`,
        { code },
        { "x-forwarded-for": `198.51.100.${100 + index}` },
      ).then((response) => response.status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    const check = createClient({ url: databaseUrl });
    const balance = await check.execute(
      "SELECT c.credits_remaining AS remaining, (SELECT SUM(delta) FROM credit_ledger l WHERE l.code_id = c.id) AS ledger FROM credit_codes c",
    );
    expect(balance.rows[0]).toMatchObject({ remaining: 0, ledger: 0 });
    expect(
      Number((await check.execute("SELECT COUNT(*) AS n FROM check_reports WHERE unlocked_at IS NOT NULL")).rows[0]?.n),
    ).toBe(3);
    check.close();
  });

  it("hold one rate limit across both with the database store", async () => {
    const signup = (index: number) => ({
      email: `twin${index}@example.com`,
      consent: true,
      consent_version: PRIVACY_VERSION,
    });
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++)
      statuses.push(
        (
          await post(index % 2 === 0 ? first : second, "/api/v1/waitlist", signup(index), {
            "x-forwarded-for": "192.0.2.200",
          })
        ).status,
      );
    expect(statuses).toEqual([202, 202, 202, 202, 202, 202, 429, 429]);
  });
});
