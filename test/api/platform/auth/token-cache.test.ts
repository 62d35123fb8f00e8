import { describe, expect, it } from "vitest";
import { revokeToken, setTrust } from "../../../../api/agents/sql.ts";
import { bearer, registerAgent, validEntry } from "../../../helpers/agents.ts";
import { createTestApp } from "../../../helpers/app.ts";

describe("token owners read within the last second", () => {
  it("spare the database, yet a revocation or suspension made elsewhere holds within a second", async () => {
    let now = Date.parse("2026-11-22T10:00:00.000Z");
    const t = await createTestApp({ now: () => new Date(now), stateTtlMs: 1_000 });
    const first = await registerAgent(t);
    const second = await registerAgent(t);
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(first.token))).status).toBe(200);
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(second.token))).status).toBe(200);
    // As the staff CLI or another instance would: straight in the database.
    const [row] = (
      await t.services.database.client.execute({
        sql: "SELECT id FROM agent_tokens WHERE agent_id = ?",
        args: [first.agent_id],
      })
    ).rows;
    await revokeToken(t.services.database.client, String(row?.id), new Date(now).toISOString());
    await setTrust(t.services.database.client, second.agent_id, "suspended");
    now += 999;
    expect((await t.send("GET", "/api/v1/agents/me", undefined, bearer(first.token))).status).toBe(200);
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
