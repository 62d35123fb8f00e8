import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { ArgsDef, CommandDef } from "citty";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { revokeToken, setTrust } from "../../../../api/agents/sql.ts";
import { withHotRoutes } from "../../../../api/fast-path/hot-routes.ts";
import { STANDING_FRESH_MS } from "../../../../api/platform/auth/standing-epoch.ts";
import { createLogger } from "../../../../api/platform/log.ts";
import { createApp, hotRoutesFor } from "../../../../api/wiring/app.ts";
import { tokensCommand, trustCommand } from "../../../../scripts/admin/agents.ts";
import { runAdminCommand } from "../../../helpers/admin-cli.ts";
import { bearer, registerAgent } from "../../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";

// Two instances of the service over one database file, each keeping token owners for a minute (far
// longer than the default second, so nothing here can pass by an entry running out): `a` serves
// through the real listener (hot route in front of the app), `b` makes the changes, as another
// instance or the staff CLI would.
let a: TestApp;
let b: TestApp;
let server: Server;
let base: string;
let appAnswered = 0;

beforeAll(async () => {
  a = await createTestApp({ stateTtlMs: 60_000 });
  b = await createTestApp({ stateTtlMs: 60_000, env: { DATABASE_URL: a.config.database.url } });
  const log = createLogger("silent");
  const app = toNodeHandler(createApp({ config: a.config, log, site: null, services: a.services }));
  server = createServer(
    withHotRoutes(hotRoutesFor(a.services, null, log), (request, response) => {
      appAnswered++;
      return app(request, response);
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await b.close();
  await a.close();
});

/** GET /api/v1/agents/me on instance `a`, and which of its paths answered. */
async function standing(token: string): Promise<{ status: number; by: "hot" | "app"; body: Record<string, unknown> }> {
  const before = appAnswered;
  const response = await fetch(`${base}/api/v1/agents/me`, { headers: bearer(token) });
  return {
    status: response.status,
    by: appAnswered === before ? "hot" : "app",
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function tokenIdOf(agentId: string): Promise<string> {
  const row = await b.services.database.client.queryOne({
    sql: "SELECT id FROM agent_tokens WHERE agent_id = ?",
    args: [agentId],
  });
  return String(row?.id);
}

/** The staff command itself, in this process, against the database both instances use. */
async function staff(command: CommandDef<ArgsDef>, ...args: string[]): Promise<string> {
  Object.assign(process.env, {
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATABASE_URL: a.config.database.url,
    SERVER_SECRET: "",
    SERVER_SECRET_PREVIOUS: "",
  });
  const run = await runAdminCommand(command, ...args);
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("a revocation or suspension made by the staff CLI", () => {
  it("is refused by every instance from the next request after the command returns, hot route and app alike", async () => {
    const revoked = await registerAgent(a, "Revoked");
    const suspended = await registerAgent(a, "Suspended");
    for (const { token } of [revoked, suspended]) {
      expect(await standing(token)).toMatchObject({ status: 200, by: "app" });
      expect(await standing(token)).toMatchObject({ status: 200, by: "hot" });
    }
    const tokenId = await tokenIdOf(revoked.agent_id);
    expect(await staff(tokensCommand, "revoke", tokenId)).toContain(`Revoked ${tokenId}: every instance answers 401`);
    expect(await standing(revoked.token)).toMatchObject({
      status: 401,
      by: "app",
      body: { detail: "This token has been revoked." },
    });
    expect(await staff(trustCommand, "set", suspended.agent_id, "suspended")).toContain("suspended on every instance");
    expect(await standing(suspended.token)).toMatchObject({
      status: 401,
      by: "app",
      body: { detail: "This agent registration is suspended." },
    });
    // And through the app alone (an MCP tool or a write takes that path).
    expect((await a.send("GET", "/api/v1/agents/me", undefined, bearer(revoked.token))).status).toBe(401);
  });
});

describe("a change of standing written straight into the database (another instance, a hand-written UPDATE)", () => {
  it("holds on this instance within a quarter of a second, though owners are kept for a minute", async () => {
    const revoked = await registerAgent(a, "Quietly revoked");
    const promoted = await registerAgent(a, "Promoted");
    for (const { token } of [revoked, promoted]) await standing(token);
    expect(
      await revokeToken(b.services.database.client, await tokenIdOf(revoked.agent_id), new Date().toISOString()),
    ).toBe(true);
    expect(await setTrust(b.services.database.client, promoted.agent_id, "verified")).toBe(true);
    const committed = performance.now();
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, STANDING_FRESH_MS - (performance.now() - committed))),
    );
    expect(await standing(revoked.token)).toMatchObject({ status: 401, by: "app" });
    expect(await standing(promoted.token)).toMatchObject({ status: 200, by: "app", body: { trust: "verified" } });
    // Read again under the new epoch, the owner is served from memory as before.
    expect(await standing(promoted.token)).toMatchObject({ status: 200, by: "hot" });
  });

  it("costs this instance one read of the epoch per ~125 ms under load, not one per request", async () => {
    const { token } = await registerAgent(a, "Busy");
    await standing(token);
    const reads = vi.spyOn(a.services.database.client, "queryOne");
    const started = performance.now();
    let answered = 0;
    // At least 600 ms of requests, however slowly a loaded machine answers them.
    while (performance.now() - started < 600 || answered < 50) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => standing(token)));
      answered += batch.filter((answer) => answer.status === 200).length;
    }
    const elapsed = performance.now() - started;
    const epochReads = reads.mock.calls.filter(([statement]) => String(statement).includes("agent_standing_epoch"));
    const ownerReads = reads.mock.calls.filter(([statement]) => JSON.stringify(statement).includes("agent_tokens"));
    reads.mockRestore();
    // A read at most every 125 ms of requests (and one at the start if the reading had aged).
    expect(epochReads.length).toBeGreaterThanOrEqual(2);
    expect(epochReads.length).toBeLessThanOrEqual(Math.ceil(elapsed / (STANDING_FRESH_MS / 2)) + 1);
    expect(ownerReads).toEqual([]);
  });
});
