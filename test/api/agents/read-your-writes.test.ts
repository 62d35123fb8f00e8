import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, registerAgent, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

// Two instances over one database file behind a balancer that does not route by token: each keeps
// token owners as production does (a second), and TOKEN_CACHE_MS=0 is the setting the runbook gives
// for such a balancer. The front of `npm run cluster` routes by token instead (test/e2e/scale-out.test.ts).
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  const env = { TOKEN_CACHE_MS: "0" };
  a = await createTestApp({ stateTtlMs: 1_000, env });
  b = await createTestApp({ stateTtlMs: 1_000, env: { ...env, DATABASE_URL: a.config.database.url } });
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const standing = async (t: TestApp, token: string) => {
  const response = await t.send("GET", "/api/v1/agents/me", undefined, bearer(token));
  expect(response.status).toBe(200);
  return (await response.json()) as { waitlist: { joined: boolean } };
};

describe("TOKEN_CACHE_MS=0, behind any balancer", () => {
  it("lets an agent read its own waiting-list entry from the instance that did not take it", async () => {
    const { token } = await registerAgent(a);
    expect((await standing(a, token)).waitlist.joined).toBe(false);
    expect((await standing(b, token)).waitlist.joined).toBe(false);
    expect((await a.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token))).status).toBe(201);
    expect((await standing(b, token)).waitlist.joined).toBe(true);
  });
});
