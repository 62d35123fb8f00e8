import { randomBytes } from "node:crypto";
import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUnavailableError } from "../../../api/db/database.ts";
import { RemoteSql } from "../../../api/db/remote-sql.ts";
import { freePort } from "../../../scripts/lib/free-port.ts";
import { sampleSurveyAnswer } from "../../../scripts/lib/sample-survey.ts";
import { type RunningSqld, startSqld } from "../../../scripts/lib/sqld.ts";
import { bearer, PRIVACY_VERSION, registerAgent, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

// The remote driver against a real sqld: what it sends again after which failure, that it never
// hangs, and the database round trips per write endpoint (counted by the driver, with rate limits in
// the database and the caches warm, as a busy instance has them).
let sqld: RunningSqld;
let t: TestApp;
beforeAll(async () => {
  sqld = await startSqld();
  t = await createTestApp({
    env: {
      DATABASE_URL: sqld.url,
      SERVER_SECRET: "round-trips-secret-round-trips-secret-xx",
      BOT_SIGNING_KEY: randomBytes(32).toString("base64url"),
      RATE_LIMIT_STORE: "database",
      RATE_LIMITS: "agent-writes=1000/60,waitlist=1000/60,agent-register=1000/3600",
    },
    stateTtlMs: 60_000,
  });
});
afterAll(async () => {
  await t?.close();
  await sqld?.close();
});

/** How many requests reached sqld while `request` ran. */
async function roundTrips(request: () => Promise<Response>): Promise<{ status: number; trips: number }> {
  const client = t.services.database.client;
  if (!(client instanceof RemoteSql)) throw new Error("expected the remote driver");
  const before = client.roundTrips;
  const response = await request();
  return { status: response.status, trips: client.roundTrips - before };
}

let address = 0;
const from = () => ({ "x-forwarded-for": `203.0.113.${++address % 250}` });

describe("database round trips per write, against sqld", () => {
  it("are at most two for each limited write endpoint, the rate-limit counter included", async () => {
    // Warm the state reading and each token's cache entry, as a running instance has them.
    const warm = async () => {
      const agent = await registerAgent(t);
      await t.send("GET", "/api/v1/agents/me", undefined, bearer(agent.token));
      return agent;
    };
    const [agent, surveyed] = [await warm(), await warm()];
    // Tokens this instance has not used (another instance's clients): their owners are read too.
    const [coldAgent, coldSurveyed] = [await registerAgent(t), await registerAgent(t)];
    const agentWrite = (path: string, body: () => unknown, token: string) =>
      roundTrips(() => t.send("POST", path, body(), { ...bearer(token), ...from() }));
    const entry = () => validEntry;
    const counted: Record<string, { status: number; trips: number }> = {
      "POST /api/v1/agents/register": await roundTrips(() =>
        t.send(
          "POST",
          "/api/v1/agents/register",
          { agent_name: "Count", agent_type: "bot", operator_type: "company" },
          from(),
        ),
      ),
      "POST /api/v1/agents/waitlist": await agentWrite("/api/v1/agents/waitlist", entry, agent.token),
      "POST /api/v1/agents/waitlist, token not cached": await agentWrite(
        "/api/v1/agents/waitlist",
        entry,
        coldAgent.token,
      ),
      "POST /api/v1/agents/survey": await agentWrite("/api/v1/agents/survey", sampleSurveyAnswer, surveyed.token),
      "POST /api/v1/agents/survey, token not cached": await agentWrite(
        "/api/v1/agents/survey",
        sampleSurveyAnswer,
        coldSurveyed.token,
      ),
      "POST /api/v1/waitlist": await roundTrips(() =>
        t.send(
          "POST",
          "/api/v1/waitlist",
          { email: "trips@example.com", consent: true, consent_version: PRIVACY_VERSION },
          from(),
        ),
      ),
    };
    for (const [endpoint, { status, trips }] of Object.entries(counted)) {
      expect(status, endpoint).toBeLessThan(300);
      expect(trips, endpoint).toBeLessThanOrEqual(2);
    }
  });
});

/**
 * A TCP proxy to sqld that, while `cutting`, passes each POST on and drops the connection as the
 * answer starts. GETs (the client asking which protocol sqld speaks) pass: the statements are what
 * is cut.
 */
async function cuttingProxy(target: number): Promise<{ url: string; cutting: boolean; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { cutting: true };
  const server: Server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    // The method of the request in flight on this connection (kept alive between requests).
    let posted = false;
    client.on("data", (chunk: Buffer) => {
      if (/^[A-Z]+ \//.test(chunk.subarray(0, 8).toString())) posted = chunk.subarray(0, 5).toString() === "POST ";
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (state.cutting && posted) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

describe("the remote driver when sqld fails", () => {
  it("sends a write again when sqld could not be reached and is back within the retry budget", async () => {
    const sql = new RemoteSql(sqld.url, undefined, 5_000);
    await sql.execute("CREATE TABLE IF NOT EXISTS restarts (n INTEGER)");
    await sqld.stop();
    const back = new Promise((resolve) => setTimeout(resolve, 400)).then(() => sqld.start());
    await sql.execute("INSERT INTO restarts (n) VALUES (1)");
    await back;
    expect((await sql.execute("SELECT COUNT(*) AS n FROM restarts")).rows[0]?.n).toBe(1);
    sql.close();
  });

  it("never sends a write again after the connection dropped mid-request, but does send a read again", async () => {
    const direct = new RemoteSql(sqld.url, undefined, 5_000);
    await direct.execute("CREATE TABLE IF NOT EXISTS cuts (n INTEGER)");
    const proxy = await cuttingProxy(sqld.port);
    const sql = new RemoteSql(proxy.url, undefined, 5_000);
    const write = await sql.execute("INSERT INTO cuts (n) VALUES (1)").then(
      () => null,
      (error: unknown) => error,
    );
    expect(isUnavailableError(write)).toBe(true);
    // sqld applied it once; sending it again would have made it two.
    expect((await direct.execute("SELECT COUNT(*) AS n FROM cuts")).rows[0]?.n).toBe(1);
    const read = sql.execute("SELECT COUNT(*) AS n FROM cuts");
    setTimeout(() => (proxy.cutting = false), 150);
    expect((await read).rows[0]?.n).toBe(1);
    const marked = sql.execute({ sql: "DELETE FROM cuts WHERE n = 1", idempotent: true });
    proxy.cutting = true;
    setTimeout(() => (proxy.cutting = false), 150);
    await marked;
    expect((await direct.execute("SELECT COUNT(*) AS n FROM cuts")).rows[0]?.n).toBe(0);
    sql.close();
    direct.close();
    await proxy.close();
  });

  it.each([
    // Hrana 3: the statements go grouped (statement-pipeline.ts).
    { protocol: "v3-protobuf", posted: "/v3-protobuf/pipeline" },
    // A server that speaks Hrana 2 only: one request per statement, through @libsql/client.
    { protocol: "v2", posted: "/v2/pipeline" },
  ])(
    "takes a $protocol server's 5xx answer (sqld shutting down) as the database being unavailable, never sending a write again",
    async ({ protocol, posted }) => {
      const posts: string[] = [];
      const failing = createHttpServer((request, response) => {
        request.resume();
        // The protocol probe finds `protocol`; every statement is answered 500.
        if (request.method === "GET") response.writeHead(request.url === `/${protocol}` ? 200 : 404).end();
        else {
          posts.push(request.url ?? "");
          response.writeHead(500, { "content-type": "text/plain" }).end("shutting down");
        }
      });
      const port = await freePort();
      await new Promise<void>((resolve) => failing.listen(port, "127.0.0.1", resolve));
      const sql = new RemoteSql(`http://127.0.0.1:${port}`, undefined, 2_000);
      const error = await sql.execute("INSERT INTO anything (n) VALUES (1)").then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(isUnavailableError(error)).toBe(true);
      expect(posts).toEqual([posted]);
      sql.close();
      await new Promise((resolve) => failing.close(resolve));
    },
  );

  it("gives up within its timeout, as the database being unavailable, when the server stops answering", async () => {
    const held = new Set<Socket>();
    const silent = createServer((socket) => void held.add(socket));
    const port = await freePort();
    await new Promise<void>((resolve) => silent.listen(port, "127.0.0.1", resolve));
    const sql = new RemoteSql(`http://127.0.0.1:${port}`, undefined, 600);
    const started = Date.now();
    const error = await sql.execute("SELECT 1").then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(isUnavailableError(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    sql.close();
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });
});
