import { describe, expect, it, vi } from "vitest";
import { revokeToken, setTrust } from "../../../../api/agents/sql.ts";
import { STANDING_FRESH_MS } from "../../../../api/platform/auth/standing-epoch.ts";
import type { TokenOwner } from "../../../../api/platform/auth/token-owner.ts";
import { TokenOwnerCache } from "../../../../api/platform/auth/token-owner-cache.ts";
import { bearer, registerAgent, validEntry } from "../../../helpers/agents.ts";
import { createTestApp } from "../../../helpers/app.ts";

const owner = (agentId: string): TokenOwner => ({
  tokenId: `tok_${agentId}`,
  tokenHash: new Uint8Array(32),
  scopes: [],
  revoked: false,
  agent: {
    id: agentId,
    agent_name: "A",
    agent_type: "bot",
    operator_type: "company",
    principal_contact: null,
    trust: "unverified",
    registered_by: "api",
    created_at: "2026-11-22T00:00:00.000Z",
  },
  waitlistJoinedAt: null,
  surveyAnsweredAt: null,
  surveyVersion: null,
  standingEpoch: 0,
});

describe("the token owner cache", () => {
  it("re-reads an owner past half its lifetime in the background, serving it meanwhile, so steady use never misses", async () => {
    let now = 0;
    const reads: string[] = [];
    let answer: (value: TokenOwner | null) => void = () => {};
    const cache = new TokenOwnerCache(
      1_000,
      () => now,
      undefined,
      (token) => {
        reads.push(token);
        return new Promise((resolve) => (answer = resolve));
      },
    );
    cache.set("agt_busy", owner("ag_1"));
    now = 400;
    expect(cache.get("agt_busy")?.agent.id).toBe("ag_1");
    expect(reads).toEqual([]);
    now = 600;
    expect(cache.get("agt_busy")?.agent.id).toBe("ag_1");
    expect(cache.get("agt_busy")?.agent.id).toBe("ag_1");
    expect(reads).toEqual(["agt_busy"]);
    answer({ ...owner("ag_1"), revoked: true });
    await Promise.resolve();
    now = 1_300;
    // Read again at 600: fresh until 1,600, and what the database said then.
    expect(cache.get("agt_busy")?.revoked).toBe(true);
  });

  it("drops a re-read that comes back after the agent's standing changed here", async () => {
    let now = 0;
    let answer: (value: TokenOwner | null) => void = () => {};
    const cache = new TokenOwnerCache(
      1_000,
      () => now,
      undefined,
      () => new Promise((resolve) => (answer = resolve)),
    );
    cache.set("agt_busy", owner("ag_1"));
    now = 600;
    cache.get("agt_busy");
    cache.forgetAgent("ag_1");
    answer(owner("ag_1"));
    await Promise.resolve();
    expect(cache.get("agt_busy")).toBeUndefined();
  });

  it("lets no token outlive its lifetime by more than one lifetime once other tokens arrive", () => {
    let now = 0;
    const cache = new TokenOwnerCache(1_000, () => now);
    cache.set("agt_first", owner("ag_1"));
    cache.set("agt_second", owner("ag_2"));
    now = 1_500;
    cache.set("agt_third", owner("ag_3"));
    // The first two expired and were swept out without ever being asked for again.
    expect(cache.size).toBe(1);
    expect(cache.get("agt_third")?.agent.id).toBe("ag_3");
    expect(cache.get("agt_first")).toBeUndefined();
  });

  it("forgets every token of one agent, and only that agent's", () => {
    const cache = new TokenOwnerCache(60_000, () => 0);
    cache.set("agt_a1", owner("ag_a"));
    cache.set("agt_a2", owner("ag_a"));
    cache.set("agt_b1", owner("ag_b"));
    cache.forgetAgent("ag_a");
    expect(cache.get("agt_a1")).toBeUndefined();
    expect(cache.get("agt_a2")).toBeUndefined();
    expect(cache.get("agt_b1")?.agent.id).toBe("ag_b");
    // A token cached again after being forgotten is forgotten again with its agent.
    cache.set("agt_a1", owner("ag_a"));
    cache.forgetAgent("ag_a");
    expect(cache.get("agt_a1")).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it("holds at most its limit, dropping the oldest first, and nothing at all with no lifetime", () => {
    const cache = new TokenOwnerCache(60_000, () => 0, 2);
    cache.set("agt_1", owner("ag_1"));
    cache.set("agt_2", owner("ag_2"));
    cache.set("agt_3", owner("ag_3"));
    expect(cache.size).toBe(2);
    expect(cache.get("agt_1")).toBeUndefined();
    cache.forgetAgent("ag_1");
    expect(cache.size).toBe(2);
    const none = new TokenOwnerCache(0, () => 0);
    none.set("agt_1", owner("ag_1"));
    expect(none.get("agt_1")).toBeUndefined();
  });
});

describe("token owners read within the last second", () => {
  it("spare the database, yet a revocation or suspension made elsewhere holds well within their second", async () => {
    let now = Date.parse("2026-11-22T10:00:00.000Z");
    const t = await createTestApp({ now: () => new Date(now), stateTtlMs: 1_000 });
    const first = await registerAgent(t);
    const second = await registerAgent(t);
    const owners = vi.spyOn(t.services.operationDeps.auth, "findOwner");
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(first.token))).status).toBe(200);
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(second.token))).status).toBe(200);
    for (let request = 0; request < 10; request++)
      expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(first.token))).status).toBe(200);
    // Two owners read, then ten answers from memory.
    expect(owners).toHaveBeenCalledTimes(2);
    // As the staff CLI or another instance would: straight in the database.
    const [row] = (
      await t.services.database.client.execute({
        sql: "SELECT id FROM agent_tokens WHERE agent_id = ?",
        args: [first.agent_id],
      })
    ).rows;
    await revokeToken(t.services.database.client, String(row?.id), new Date(now).toISOString());
    await setTrust(t.services.database.client, second.agent_id, "suspended");
    // Well within the owners' second; the staff command waits this long before it says it is done.
    await new Promise((resolve) => setTimeout(resolve, STANDING_FRESH_MS));
    now += 1;
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(first.token))).status).toBe(401);
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(second.token))).status).toBe(401);
    await t.close();
  });

  it("never show a stale standing after the agent's own write on this instance", async () => {
    const t = await createTestApp({ stateTtlMs: 60_000 });
    const { token } = await registerAgent(t);
    expect(await (await t.send("GET", "/api/v1/agents/me", undefined, bearer(token))).json()).toMatchObject({
      waitlist: { joined: false },
    });
    expect((await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token))).status).toBe(201);
    expect(await (await t.send("GET", "/api/v1/agents/me", undefined, bearer(token))).json()).toMatchObject({
      waitlist: { joined: true },
    });
    await t.close();
  });
});
