import { describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../../../api/platform/limits/rate-limiter.ts";
import { createLogger } from "../../../../api/platform/log.ts";
import { setSwitch } from "../../../../api/platform/state/switches-sql.ts";
import { createApp } from "../../../../api/wiring/app.ts";
import { composeServices } from "../../../../api/wiring/compose.ts";
import { expectProblem, PRIVACY_VERSION } from "../../../helpers/agents.ts";
import { createTestApp } from "../../../helpers/app.ts";
import { builtSite } from "../../../helpers/site.ts";

const signup = (n: number) => ({ email: `r${n}@example.com`, consent: true, consent_version: PRIVACY_VERSION });

describe("rate limits", () => {
  it("count down in RateLimit, refuse with Retry-After, and reset when the window ends", async () => {
    let now = Date.parse("2026-11-22T10:00:00.000Z");
    const t = await createTestApp({ now: () => new Date(now), env: { RATE_LIMITS: "waitlist=3/60" } });
    const from = { "x-forwarded-for": "192.0.2.10" };
    const remaining: string[] = [];
    for (let index = 0; index < 3; index++) {
      const response = await t.send("POST", "/api/v1/waitlist", signup(index), from);
      expect(response.status).toBe(202);
      expect(response.headers.get("ratelimit-policy")).toBe('"waitlist";q=3;w=60');
      remaining.push(response.headers.get("ratelimit") ?? "");
    }
    expect(remaining).toEqual(['"waitlist";r=2;t=60', '"waitlist";r=1;t=60', '"waitlist";r=0;t=60']);
    now += 20_000;
    const refused = await t.send("POST", "/api/v1/waitlist", signup(3), from);
    await expectProblem(refused, 429, "rate-limited");
    expect(refused.headers.get("retry-after")).toBe("40");
    expect((await t.send("POST", "/api/v1/waitlist", signup(4), { "x-forwarded-for": "192.0.2.11" })).status).toBe(202);
    now += 40_000;
    expect((await t.send("POST", "/api/v1/waitlist", signup(5), from)).status).toBe(202);
    await t.close();
  });

  it("hold across two instances sharing the database store", async () => {
    const first = await createTestApp({ env: { RATE_LIMIT_STORE: "database", RATE_LIMITS: "waitlist=4/60" } });
    const log = createLogger("silent");
    const secondServices = await composeServices(first.config, log, { stateTtlMs: 0 });
    const second = createApp({ config: first.config, log, site: await builtSite(), services: secondServices });
    const from = { "content-type": "application/json", "x-forwarded-for": "192.0.2.20" };
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) {
      const app = index % 2 === 0 ? first.app : second;
      statuses.push(
        (
          await app.request("/api/v1/waitlist", {
            method: "POST",
            headers: from,
            body: JSON.stringify(signup(100 + index)),
          })
        ).status,
      );
    }
    expect(statuses).toEqual([202, 202, 202, 202, 429, 429]);
    // The shared counters name no client: the address is kept only as a keyed hash.
    const stored = await first.services.database.client.execute("SELECT key FROM rate_limit_counters");
    expect(stored.rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored.rows)).not.toContain("192.0.2");
    secondServices.database.close();
    await first.close();
  });

  for (const store of ["memory", "database"]) {
    it(`give back what a request the service refused (503) took, in the ${store} store`, async () => {
      const t = await createTestApp({ env: { RATE_LIMIT_STORE: store, RATE_LIMITS: "waitlist=2/60" } });
      const from = { "x-forwarded-for": "192.0.2.30" };
      const closedAt = new Date().toISOString();
      await setSwitch(t.services.database.client, "waitlist", false, "test", closedAt);
      for (let index = 0; index < 4; index++) {
        const refused = await t.send("POST", "/api/v1/waitlist", signup(200 + index), from);
        await expectProblem(refused, 503, "form-closed");
        // The headers still say where the client stands: the full allowance, untouched.
        expect(refused.headers.get("ratelimit")).toBe('"waitlist";r=2;t=60');
      }
      await setSwitch(t.services.database.client, "waitlist", true, "test", new Date().toISOString());
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) {
        statuses.push((await t.send("POST", "/api/v1/waitlist", signup(210 + index), from)).status);
      }
      expect(statuses).toEqual([202, 202, 429]);
      await t.close();
    });
  }
});

/** 30 addresses of one IPv6 /64: what one subscriber's router hands out, or one attacker rotates through. */
const oneSubnet = Array.from({ length: 30 }, (_, index) => `2001:db8:5:64:${(index + 1).toString(16)}::${index + 7}`);

/** A request each limit counts per client address (the body or the id may be refused: the count comes first). */
const COUNTED_PER_ADDRESS: Record<
  string,
  { method: string; path: string; body?: unknown; headers?: Record<string, string> }
> = {
  checks: { method: "POST", path: "/api/v1/checks", body: {} },
  "checks-daily": { method: "POST", path: "/api/v1/checks", body: {} },
  monitors: {
    method: "POST",
    path: "/api/v1/monitors",
    body: { domain: "http://127.0.0.1:9", email: "ipv6@example.com" },
  },
  "check-payments": { method: "POST", path: "/api/v1/checks/00000000-0000-4000-8000-000000000000/redeem", body: {} },
  "store-checkout": { method: "POST", path: "/api/v1/store/no-such-product/checkout", body: {} },
  "session-lookup": { method: "GET", path: "/api/v1/store/sessions/not-a-session-id" },
  downloads: { method: "GET", path: "/api/v1/downloads/not-a-token" },
  "agent-register": { method: "POST", path: "/api/v1/agents/register", body: {} },
  waitlist: { method: "POST", path: "/api/v1/waitlist", body: {} },
  mcp: { method: "GET", path: "/api/v1/tools" },
  "api-misses": { method: "GET", path: "/api/v1/no-such-endpoint" },
  // Every post to the authorization server counts, the consent page's first (before its interaction is read).
  oauth: { method: "POST", path: "/oauth/consent/no-such-interaction" },
  "agent-auth-failures": {
    method: "GET",
    path: "/api/v1/agents/me",
    headers: { authorization: "Bearer agt_notatokennotatokennotatokennota000000" },
  },
};

describe("an IPv6 client", () => {
  it("is counted by its /64 in every limit counted per address: three addresses of one /64 share a limit of two", async () => {
    // Agent writes are counted per token only; every other limit is counted per address.
    expect(Object.keys(COUNTED_PER_ADDRESS).sort()).toEqual(
      Object.keys(DEFAULT_RATE_LIMITS)
        .filter((name) => name !== "agent-writes")
        .sort(),
    );
    const limits = Object.keys(COUNTED_PER_ADDRESS).map((name) => `${name}=2/60`);
    const t = await createTestApp({
      env: {
        RATE_LIMITS: limits.join(","),
        // Payments configured, so a lookup is refused for its session id (never a 503, which gives the count back).
        STRIPE_SECRET_KEY: "sk_test_limits",
        STRIPE_API_BASE: "http://127.0.0.1:9",
        CHECKS_ALLOWED_TARGETS: "127.0.0.1:9",
      },
    });
    const outcomes: Record<string, number[]> = {};
    for (const [name, call] of Object.entries(COUNTED_PER_ADDRESS)) {
      const send = (address: string) =>
        t.send(call.method, call.path, call.body, { "x-forwarded-for": address, ...call.headers });
      // Each limit gets a /64 of its own, so one limit's count never decides another's.
      const subnet = `2001:db8:${Object.keys(outcomes).length + 10}:1`;
      const statuses: number[] = [];
      for (const host of ["::1", ":a:b:c:d", "::ffff:0:1"]) statuses.push((await send(`${subnet}${host}`)).status);
      const neighbour = await send(`2001:db8:${Object.keys(outcomes).length + 10}:2::1`);
      outcomes[name] = [...statuses.map((status) => (status === 429 ? 429 : 0)), neighbour.status === 429 ? 429 : 0];
    }
    expect(outcomes).toEqual(
      Object.fromEntries(Object.keys(COUNTED_PER_ADDRESS).map((name) => [name, [0, 0, 429, 0]])),
    );
    await t.close();
  });

  it("gets ten monitor requests a minute for its whole /64, not ten per address: the probe's 30 addresses", async () => {
    const t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: "127.0.0.1:9" } });
    const statuses: number[] = [];
    for (const address of oneSubnet)
      statuses.push(
        (
          await t.send(
            "POST",
            "/api/v1/monitors",
            { domain: "http://127.0.0.1:9", email: "victim@example.com" },
            {
              "x-forwarded-for": address,
            },
          )
        ).status,
      );
    expect(statuses.filter((status) => status !== 429)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual(Array(20).fill(429));
    // An IPv4 address written as IPv6 is that IPv4 client.
    const ipv4 = await t.send("POST", "/api/v1/monitors", {}, { "x-forwarded-for": "198.51.100.9" });
    const mapped = await t.send("POST", "/api/v1/monitors", {}, { "x-forwarded-for": "::ffff:198.51.100.9" });
    expect(mapped.headers.get("ratelimit")).toBe('"monitors";r=8;t=60');
    expect(ipv4.status).toBe(422);
    await t.close();
  });
});
