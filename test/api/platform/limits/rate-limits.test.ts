import { describe, expect, it } from "vitest";
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
