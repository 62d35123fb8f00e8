import { rename } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSwitch } from "../../../../api/platform/state/switches-sql.ts";
import { bearer, expectProblem, registerAgent, validEntry } from "../../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";
import { validateAgainstPublishedSchema } from "../../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const capabilityIds = async () =>
  ((await (await t.app.request("/capabilities.json")).json()) as { capabilities: { id: string }[] }).capabilities.map(
    (capability) => capability.id,
  );

describe("status and configuration", () => {
  it("answers /health, /status.json and /api/v1/config matching their schemas", async () => {
    expect(await (await t.app.request("/health")).json()).toEqual({ status: "ok" });
    const status = await (await t.app.request("/status.json")).json();
    expect(validateAgainstPublishedSchema("status", status)).toEqual([]);
    expect(status).toMatchObject({
      status: "ok",
      components: { api: "ok", database: "configured", payments: "not-configured" },
    });
    expect(validateAgainstPublishedSchema("config", await (await t.app.request("/api/v1/config")).json())).toEqual([]);
  });

  it("drops what needs a payment provider from capabilities when none is configured, and says so", async () => {
    const ids = await capabilityIds();
    expect(ids).toContain("agents.waitlist");
    expect(ids).not.toContain("store.checkout");
    const { unavailable } = (await (await t.app.request("/capabilities.json")).json()) as {
      unavailable: { capability: string; reason: string }[];
    };
    expect(unavailable).toContainEqual({ capability: "store.checkout", reason: "payments is not configured" });
  });
});

describe("a switch turned off by staff", () => {
  it("closes the form, drops its capability from every live document, and reopens without a restart", async () => {
    const at = new Date().toISOString();
    await setSwitch(t.services.database.client, "agent_register", false, "test", at);
    expect(await capabilityIds()).not.toContain("agents.register");
    const state = (await (await t.app.request("/.well-known/service-state.json")).json()) as {
      forms: Record<string, string>;
      unavailable: { capability: string }[];
    };
    expect(state.forms.agent_register).toBe("closed");
    expect(state.unavailable.map((entry) => entry.capability)).toContain("agents.register");
    const agents = (await (await t.app.request("/agents.json")).json()) as { endpoints: { operation: string }[] };
    expect(agents.endpoints.map((endpoint) => endpoint.operation)).not.toContain("registerAgent");
    await expectProblem(
      await t.send("POST", "/api/v1/agents/register", { agent_name: "a", agent_type: "b", operator_type: "company" }),
      503,
      "form-closed",
    );
    await setSwitch(t.services.database.client, "agent_register", true, "test", at);
    expect(await capabilityIds()).toContain("agents.register");
  });
});

describe("the database going away while running", () => {
  it("answers 503 where it is needed, shows it in status and capabilities, and recovers when it is back", async () => {
    const { token } = await registerAgent(t);
    const path = t.services.database.path ?? "";
    await rename(path, `${path}.away`);
    try {
      const status = (await (await t.app.request("/status.json")).json()) as {
        status: string;
        components: { database: string };
      };
      expect(status).toMatchObject({ status: "degraded", components: { database: "unavailable" } });
      const ids = await capabilityIds();
      expect(ids).not.toContain("agents.waitlist");
      expect(ids).toContain("docs.list");
      // The capabilities file says why the writes are gone, not only that they are.
      const capabilities = (await (await t.app.request("/capabilities.json")).json()) as {
        unavailable: { capability: string; reason: string }[];
      };
      expect(validateAgainstPublishedSchema("capabilities", capabilities)).toEqual([]);
      expect(capabilities.unavailable).toContainEqual({
        capability: "agents.waitlist",
        reason: "database is unavailable",
      });
      const refused = await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
      await expectProblem(refused, 503, "service-unavailable");
      expect(refused.headers.get("retry-after")).toBe("30");
      await expectProblem(
        await t.send("GET", "/api/v1/agents/me", undefined, bearer(token)),
        503,
        "service-unavailable",
      );
      expect((await t.app.request("/api/v1/docs")).status).toBe(200);
      expect((await t.app.request("/health")).status).toBe(200);
    } finally {
      await rename(`${path}.away`, path);
    }
    expect((await (await t.app.request("/status.json")).json()) as object).toMatchObject({
      status: "ok",
      components: { database: "configured" },
    });
    expect((await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token))).status).toBe(201);
  });
});
