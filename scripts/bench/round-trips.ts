import { randomBytes } from "node:crypto";
import { loadConfig } from "../../api/config.ts";
import { RemoteSql } from "../../api/db/remote-sql.ts";
import { createLogger } from "../../api/platform/log.ts";
// Database round trips per limited write, counted by the remote driver (RemoteSql.roundTrips) in
// an app assembled in this process against a real sqld, rate limits in the database.
import { createApp } from "../../api/wiring/app.ts";
import { composeServices } from "../../api/wiring/compose.ts";
import { sampleSurveyAnswer } from "../lib/sample-survey.ts";
import { startSqld } from "../lib/sqld.ts";

export interface RoundTrips {
  /** With the token's owner cached (used in the last second); for writes without a token, any request. */
  warm: number;
  /** With a token this instance has not seen in the last second: its owner is looked up too. */
  cold: number;
}

const PRIVACY = "privacy-2026-11-01";

export async function countRoundTrips(distDir: string, siteUrl: string): Promise<Record<string, RoundTrips>> {
  const sqld = await startSqld();
  const config = loadConfig({
    NODE_ENV: "test",
    SITE_URL: siteUrl,
    DIST_DIR: distDir,
    DATABASE_URL: sqld.url,
    SERVER_SECRET: "round-trips-bench-secret-round-trips-bench",
    BOT_SIGNING_KEY: randomBytes(32).toString("base64url"),
    RATE_LIMIT_STORE: "database",
    RATE_LIMITS: "agent-writes=1000/60,waitlist=1000/60,agent-register=1000/3600",
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
  });
  const log = createLogger("silent");
  const services = await composeServices(config, log, { stateTtlMs: 60_000 });
  const app = createApp({ config, log, site: null, services });
  const client = services.database.client;
  if (!(client instanceof RemoteSql)) throw new Error("expected the remote driver");
  let address = 0;
  const send = async (path: string, body: unknown, token?: string): Promise<Response> =>
    app.request(path, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        "content-type": "application/json",
        "x-forwarded-for": `203.0.113.${++address % 250}`,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const trips = async (request: () => Promise<Response>) => {
    const before = client.roundTrips;
    const response = await request();
    if (response.status >= 300) throw new Error(`${response.status}: ${await response.text()}`);
    return client.roundTrips - before;
  };
  const registered = async () =>
    (
      (await (
        await send("/api/v1/agents/register", { agent_name: "Trips", agent_type: "bot", operator_type: "company" })
      ).json()) as {
        token: string;
      }
    ).token;
  const warmToken = async () => {
    const token = await registered();
    await send("/api/v1/agents/me", undefined, token);
    return token;
  };
  // The state reading and the purge of expired counters (once a second, once a minute) out of the way.
  await send("/api/v1/config", undefined);
  await registered();
  const entry = {
    agent_name: "Trips",
    agent_type: "bot",
    operator_type: "company",
    use_cases: ["measure"],
    capabilities: ["read"],
    tools_used: ["curl"],
    consent_version: PRIVACY,
  };
  let signup = 0;
  const person = () => ({ email: `trips-${++signup}@example.com`, consent: true, consent_version: PRIVACY });
  const register = () =>
    trips(() => send("/api/v1/agents/register", { agent_name: "T", agent_type: "bot", operator_type: "company" }));
  /** The round trips of one agent write with a token whose owner is cached (warm) and one that is not (cold). */
  const agentWrite = async (path: string, body: () => unknown): Promise<RoundTrips> => {
    const [warm, cold] = [await warmToken(), await registered()];
    return { warm: await trips(() => send(path, body(), warm)), cold: await trips(() => send(path, body(), cold)) };
  };
  try {
    return {
      "POST /api/v1/agents/register": { warm: await register(), cold: await register() },
      "POST /api/v1/agents/waitlist": await agentWrite("/api/v1/agents/waitlist", () => entry),
      "POST /api/v1/agents/survey": await agentWrite("/api/v1/agents/survey", sampleSurveyAnswer),
      "POST /api/v1/waitlist": {
        warm: await trips(() => send("/api/v1/waitlist", person())),
        cold: await trips(() => send("/api/v1/waitlist", person())),
      },
    };
  } finally {
    services.database.close();
    await sqld.close();
  }
}
