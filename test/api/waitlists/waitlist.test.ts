import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { exportSignups } from "../../../api/waitlists/sql.ts";
import { expectProblem, PRIVACY_VERSION } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

const LEGEND_VERSION = "legend-2026-11-01";
let t: TestApp;
let address = 0;
const join = (body: unknown) =>
  t.send("POST", "/api/v1/waitlist", body, {
    "x-forwarded-for": `10.9.${Math.floor(++address / 250)}.${address % 250}`,
  });
const signup = (email: string, extra: Record<string, unknown> = {}) => ({
  name: "Ada",
  email,
  interests: ["checks"],
  consent: true,
  consent_version: PRIVACY_VERSION,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("POST /api/v1/waitlist", () => {
  it("answers 202 received, the same for a new and an already-listed address", async () => {
    const first = await join(signup("ada@example.com"));
    expect(first.status).toBe(202);
    const body = await first.json();
    expect(validateAgainstPublishedSchema("waitlist-received", body)).toEqual([]);
    expect(body).toEqual({ status: "received", legend: false });
    const again = await join(signup("ada@example.com"));
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual(body);
  });

  it("runs the same single statement whether or not the address is listed, so timing tells nothing", async () => {
    const client = t.services.database.client;
    const spy = vi.spyOn(client, "execute");
    await join(signup("timing@example.com"));
    const fresh = spy.mock.calls.map(([statement]) => JSON.stringify(statement).replace(/"args":\[.*\]/, ""));
    spy.mockClear();
    await join(signup("timing@example.com"));
    const listed = spy.mock.calls.map(([statement]) => JSON.stringify(statement).replace(/"args":\[.*\]/, ""));
    spy.mockRestore();
    expect(listed).toEqual(fresh);
    expect(fresh.filter((sql) => sql.includes("waitlist_signups"))).toHaveLength(1);
  });

  it("makes a legend only of someone who sends the current legend terms version", async () => {
    expect(await (await join(signup("legend@example.com", { legend_terms_version: LEGEND_VERSION }))).json()).toEqual({
      status: "received",
      legend: true,
    });
    const problem = await expectProblem(
      await join(signup("old-legend@example.com", { legend_terms_version: "legend-2025-01-01" })),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/legend_terms_version", detail: expect.stringContaining(LEGEND_VERSION) },
    ]);
  });

  it("answers 422 without consent, with an old privacy version, or a bad address", async () => {
    const refused = await join(signup("x@example.com", { consent: false }));
    // The limit was counted, so the error carries its RateLimit headers too.
    expect(refused.headers.get("ratelimit-policy")).toBe('"waitlist";q=5;w=60');
    const noConsent = await expectProblem(refused, 422, "validation-failed");
    expect(noConsent.errors).toEqual([
      { pointer: "#/consent", detail: "must be true: joining the list needs your consent" },
    ]);
    const old = await expectProblem(
      await join(signup("x@example.com", { consent_version: "privacy-2026-09-15" })),
      422,
      "validation-failed",
    );
    expect(old.errors).toEqual([{ pointer: "#/consent_version", detail: expect.stringContaining(PRIVACY_VERSION) }]);
    const bad = await expectProblem(await join(signup("not-an-address")), 422, "validation-failed");
    expect(bad.errors).toEqual([{ pointer: "#/email", detail: "must be an e-mail address like name@example.com" }]);
  });

  it("answers 422 to an address holding a control character, and lists nothing", async () => {
    for (const email of ["ada\u0000@example.com", "ada@exam\u001b[2Jple.com", "ada\u0007@example.com"]) {
      const problem = await expectProblem(await join(signup(email)), 422, "validation-failed");
      expect(problem.errors).toEqual([
        { pointer: "#/email", detail: "must be an e-mail address like name@example.com" },
      ]);
    }
    const rows = await exportSignups(t.services.database.client);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for
    expect(rows.filter((row) => /[\u0000-\u001f\u007f-\u009f]/.test(row.email))).toEqual([]);
  });

  it("keeps one row per person however the address is written", async () => {
    await join(signup("Grace@Example.COM"));
    await join(signup("  grace@example.com"));
    const rows = (await exportSignups(t.services.database.client)).filter((row) => row.email === "grace@example.com");
    expect(rows).toHaveLength(1);
  });

  it("answers 202 to 50 simultaneous signups of one address and stores one row", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () => join(signup("crowd@example.com")).then((response) => response.status)),
    );
    expect(statuses).toEqual(Array(50).fill(202));
    expect(
      (await exportSignups(t.services.database.client)).filter((row) => row.email === "crowd@example.com"),
    ).toHaveLength(1);
  });

  it("answers 429 to the sixth signup a minute from one address", async () => {
    const from = { "x-forwarded-for": "10.200.0.1" };
    for (let index = 0; index < 5; index++)
      expect((await t.send("POST", "/api/v1/waitlist", signup(`rate${index}@example.com`), from)).status).toBe(202);
    await expectProblem(
      await t.send("POST", "/api/v1/waitlist", signup("rate5@example.com"), from),
      429,
      "rate-limited",
    );
  });

  it("answers 503 while the list is closed, and /api/v1/config says so", async () => {
    await setSwitch(t.services.database.client, "waitlist", false, "test", new Date().toISOString());
    await expectProblem(await join(signup("closed@example.com")), 503, "form-closed");
    const config = await (await t.app.request("/api/v1/config")).json();
    expect(config).toMatchObject({
      forms: { waitlist: false },
      privacy_version: PRIVACY_VERSION,
      legend_terms_version: LEGEND_VERSION,
    });
    await setSwitch(t.services.database.client, "waitlist", true, "test", new Date().toISOString());
    expect((await join(signup("open@example.com"))).status).toBe(202);
  });
});
