import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readStandingEpoch } from "../../../api/agents/sql.ts";
import { libsqlAdapter } from "../../../api/oauth/storage/adapter.ts";
import { purgeExpiredRecords } from "../../../api/oauth/storage/records-sql.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";

let t: TestApp;
let clock = 1_800_000_000;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const adapter = (model: string) => libsqlAdapter({ db: () => t.services.database.client, now: () => clock })(model);
const rows = async () =>
  (await t.services.database.client.execute("SELECT model, id_hash, payload, revoked_at FROM oauth_records")).rows;

describe("the authorization server's storage (oidc-provider's adapter over libSQL)", () => {
  it("keeps no code, token or client secret that works: records are keyed by their SHA-256, secrets hashed", async () => {
    const token = "oat_storage-test-token-value";
    await adapter("AccessToken").upsert(
      token,
      { jti: token, kind: "AccessToken", grantId: "g1", accountId: "ag_1" },
      3600,
    );
    await adapter("Client").upsert("dcr_client", { client_id: "dcr_client", client_secret: "s3cret-value" }, undefined);
    const dump = JSON.stringify(await rows(), (_key, value: unknown) =>
      value instanceof Uint8Array ? Buffer.from(value).toString("hex") : value,
    );
    expect(dump).not.toContain("s3cret-value");
    expect(dump).not.toContain(Buffer.from(token).toString("hex"));
    expect(await adapter("AccessToken").find(token)).toMatchObject({ grantId: "g1", accountId: "ag_1" });
    expect((await adapter("Client").find("dcr_client"))?.client_secret).toMatch(/^sha256:/);
  });

  it("marks a consumed code consumed, and revokes a grant's tokens in place, moving the standing epoch", async () => {
    const code = adapter("AuthorizationCode");
    await code.upsert("code-1", { jti: "code-1", kind: "AuthorizationCode", grantId: "g2" }, 60);
    await code.consume("code-1");
    expect((await code.find("code-1"))?.consumed).toBe(clock);
    await adapter("AccessToken").upsert("oat_g2", { jti: "oat_g2", kind: "AccessToken", grantId: "g2" }, 3600);
    const before = await readStandingEpoch(t.services.database.client);
    await adapter("AccessToken").revokeByGrantId("g2");
    expect(await adapter("AccessToken").find("oat_g2")).toBeUndefined();
    expect(await readStandingEpoch(t.services.database.client)).toBeGreaterThan(before);
    // A session is deleted outright: nothing about it is worth keeping.
    await adapter("Session").upsert("s1", { jti: "s1", kind: "Session", uid: "u1" }, 60);
    expect(await adapter("Session").findByUid("u1")).toMatchObject({ jti: "s1" });
    await adapter("Session").destroy("s1");
    expect(await adapter("Session").findByUid("u1")).toBeUndefined();
  });

  it("forgets what expired, and housekeeping deletes it a day later", async () => {
    await adapter("Interaction").upsert("i1", { jti: "i1", kind: "Interaction" }, 10);
    clock += 11;
    expect(await adapter("Interaction").find("i1")).toBeUndefined();
    expect(await purgeExpiredRecords(t.services.database.client, clock, 86_400)).toBe(0);
    clock += 86_400;
    expect(await purgeExpiredRecords(t.services.database.client, clock, 86_400)).toBeGreaterThanOrEqual(1);
    const left = (await rows()).map((row) => row.model);
    expect(left).not.toContain("Interaction");
    expect(left).toContain("Client");
  });
});
