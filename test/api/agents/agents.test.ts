import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeToken, setTrust } from "../../../api/agents/sql.ts";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { countRows } from "../../../api/waitlists/sql.ts";
import { bearer, expectProblem, registerAgent, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { validSurveyAnswers } from "../../helpers/request-schemas.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("POST /api/v1/agents/register", () => {
  it("answers 201 with a token shown once, default scopes and unverified trust", async () => {
    const response = await t.send(
      "POST",
      "/api/v1/agents/register",
      { agent_name: "Scout", agent_type: "assistant", operator_type: "company", principal_contact: "ops@example.com" },
      { "x-forwarded-for": "203.0.113.1" },
    );
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(validateAgainstPublishedSchema("agent-registered", body)).toEqual([]);
    expect(body).toMatchObject({
      token_type: "Bearer",
      scopes: ["waitlist:write", "survey:write"],
      trust: "unverified",
    });
    expect(response.headers.get("ratelimit-policy")).toBe('"agent-register";q=10;w=3600');
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("answers 422 listing every violation, unknown properties included", async () => {
    const response = await t.send(
      "POST",
      "/api/v1/agents/register",
      { agent_name: "", operator_type: "robot", token: "please" },
      { "x-forwarded-for": "203.0.113.2" },
    );
    const problem = await expectProblem(response, 422, "validation-failed");
    expect(problem.errors).toEqual([
      { pointer: "#/agent_name", detail: "must be 1 to 200 characters long" },
      { pointer: "#/agent_type", detail: "is required" },
      { pointer: "#/operator_type", detail: 'must be one of "individual", "company", "organisation"' },
      { pointer: "#/token", detail: "is not an allowed property" },
    ]);
  });

  it("answers 400 to malformed JSON, 415 to another content type and 413 over the body limit", async () => {
    await expectProblem(
      await t.send("POST", "/api/v1/agents/register", '{"agent_name": "x",', { "x-forwarded-for": "203.0.113.3" }),
      400,
      "malformed-json",
    );
    await expectProblem(
      await t.send("POST", "/api/v1/agents/register", "agent_name=x", {
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": "203.0.113.3",
      }),
      415,
      "unsupported-media-type",
    );
    const huge = JSON.stringify({ agent_name: "x".repeat(70_000), agent_type: "a", operator_type: "company" });
    await expectProblem(
      await t.send("POST", "/api/v1/agents/register", huge, { "x-forwarded-for": "203.0.113.3" }),
      413,
      "payload-too-large",
    );
  });

  it("answers 429 with Retry-After once an address has registered ten times in an hour", async () => {
    const from = { "x-forwarded-for": "203.0.113.50" };
    const body = { agent_name: "Bulk", agent_type: "bot", operator_type: "individual" };
    for (let index = 0; index < 10; index++)
      expect((await t.send("POST", "/api/v1/agents/register", body, from)).status).toBe(201);
    const refused = await t.send("POST", "/api/v1/agents/register", body, from);
    await expectProblem(refused, 429, "rate-limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(refused.headers.get("ratelimit")).toMatch(/^"agent-register";r=0;t=\d+$/);
  });
});

describe("POST /api/v1/agents/waitlist", () => {
  it("answers 201 once and 409 to a second entry from the same agent", async () => {
    const { token } = await registerAgent(t);
    const first = await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
    expect(first.status).toBe(201);
    expect(validateAgainstPublishedSchema("agent-waitlist-received", await first.json())).toEqual([]);
    expect(first.headers.get("ratelimit-policy")).toBe('"agent-writes";q=30;w=60');
    await expectProblem(
      await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token)),
      409,
      "already-joined",
    );
  });

  it("answers 401 with a challenge naming the API's protected-resource metadata and the scope, and invalid_token with a bad token", async () => {
    const metadata = `${t.config.siteUrl}/.well-known/oauth-protected-resource`;
    const none = await t.send("POST", "/api/v1/agents/waitlist", validEntry);
    await expectProblem(none, 401, "unauthorized");
    expect(none.headers.get("www-authenticate")).toBe(
      `Bearer realm="agents", resource_metadata="${metadata}", scope="waitlist:write"`,
    );
    for (const token of ["nonsense", `agt_${"a".repeat(38)}`]) {
      const bad = await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
      await expectProblem(bad, 401, "unauthorized");
      expect(bad.headers.get("www-authenticate")).toMatch(
        new RegExp(`^Bearer realm="agents", resource_metadata="${metadata}", error="invalid_token"`),
      );
    }
  });

  it("answers 401 to a revoked token and to a suspended agent", async () => {
    const revoked = await registerAgent(t);
    const [tokenRow] = (
      await t.services.database.client.execute({
        sql: "SELECT id FROM agent_tokens WHERE agent_id = ?",
        args: [revoked.agent_id],
      })
    ).rows;
    await revokeToken(t.services.database.client, String(tokenRow?.id), new Date().toISOString());
    await expectProblem(
      await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(revoked.token)),
      401,
      "unauthorized",
    );
    const suspended = await registerAgent(t);
    await setTrust(t.services.database.client, suspended.agent_id, "suspended");
    await expectProblem(
      await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(suspended.token)),
      401,
      "unauthorized",
    );
  });

  it("answers 403 naming the scope to a token without waitlist:write", async () => {
    const { agent_id } = await registerAgent(t);
    const { token } = await t.services.agents.issueToken(agent_id, ["survey:write"], "survey only");
    const response = await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
    await expectProblem(response, 403, "insufficient-scope");
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer realm="agents", resource_metadata="${t.config.siteUrl}/.well-known/oauth-protected-resource", error="insufficient_scope", scope="waitlist:write"`,
    );
  });

  it("answers 422 to an old consent version, pointing at it", async () => {
    const { token } = await registerAgent(t);
    const problem = await expectProblem(
      await t.send(
        "POST",
        "/api/v1/agents/waitlist",
        { ...validEntry, consent_version: "privacy-2026-09-15" },
        bearer(token),
      ),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/consent_version", detail: expect.stringContaining("privacy-2026-11-01") },
    ]);
  });

  it("answers 422 pointing at each bad item, e.g. the 21st use case and a fifth capability", async () => {
    const { token } = await registerAgent(t);
    const body = {
      ...validEntry,
      use_cases: Array.from({ length: 21 }, (_, index) => `case ${index}`),
      capabilities: ["read", "write", "deploy", "pay", "fly"],
      tools_used: ["", "ok"],
      extra: 1,
    };
    const problem = await expectProblem(
      await t.send("POST", "/api/v1/agents/waitlist", body, bearer(token)),
      422,
      "validation-failed",
    );
    expect((problem.errors as { pointer: string }[]).map((error) => error.pointer).sort()).toEqual(
      ["#/use_cases", "#/capabilities/4", "#/capabilities", "#/tools_used/0", "#/extra"].sort(),
    );
  });

  it("answers 422 to a repeated capability, pointing at the repeat and naming it", async () => {
    const { token } = await registerAgent(t);
    const before = await countRows(t.services.database.client, "agent_waitlist_entries");
    const problem = await expectProblem(
      await t.send(
        "POST",
        "/api/v1/agents/waitlist",
        { ...validEntry, capabilities: ["read", "pay", "read"] },
        bearer(token),
      ),
      422,
      "validation-failed",
    );
    expect(problem.errors).toEqual([
      { pointer: "#/capabilities/2", detail: 'repeats "read" (item 0): list each of the capabilities once' },
    ]);
    expect(await countRows(t.services.database.client, "agent_waitlist_entries")).toBe(before);
  });

  it("answers 422 to a principal_contact with a control character, at registration and on the list", async () => {
    const registration = await t.send(
      "POST",
      "/api/v1/agents/register",
      { agent_name: "Scout", agent_type: "assistant", operator_type: "company", principal_contact: "ops\u001b@x.com" },
      { "x-forwarded-for": "203.0.113.9" },
    );
    expect((await expectProblem(registration, 422, "validation-failed")).errors).toEqual([
      { pointer: "#/principal_contact", detail: "must be an e-mail address like name@example.com" },
    ]);
    const { token } = await registerAgent(t);
    const entry = await t.send(
      "POST",
      "/api/v1/agents/waitlist",
      { ...validEntry, principal_contact: "ops\u0007@example.com" },
      bearer(token),
    );
    expect((await expectProblem(entry, 422, "validation-failed")).errors).toEqual([
      { pointer: "#/principal_contact", detail: "must be an e-mail address like name@example.com" },
    ]);
  });

  it("answers 429 per token after 30 writes a minute", async () => {
    const { token } = await registerAgent(t);
    const bad = { ...validEntry, agent_name: "" };
    for (let index = 0; index < 30; index++)
      expect((await t.send("POST", "/api/v1/agents/waitlist", bad, bearer(token))).status).toBe(422);
    await expectProblem(
      await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token)),
      429,
      "rate-limited",
    );
    const other = await registerAgent(t);
    expect((await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(other.token))).status).toBe(201);
  });

  it("lets exactly one of 50 simultaneous entries from one agent through, and stores one row", async () => {
    const { token, agent_id } = await registerAgent(t);
    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        t
          .send("POST", "/api/v1/agents/waitlist", validEntry, { ...bearer(token), "x-forwarded-for": "192.0.2.77" })
          .then((response) => response.status),
      ),
    );
    // 30 writes a minute per token: the rest are refused before they reach the list.
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409 || status === 429)).toBe(true);
    const rows = await t.services.database.client.execute({
      sql: "SELECT COUNT(*) AS n FROM agent_waitlist_entries WHERE agent_id = ?",
      args: [agent_id],
    });
    expect(Number(rows.rows[0]?.n)).toBe(1);
  });

  it("answers 503 form-closed while staff have closed the agent waiting list", async () => {
    const { token } = await registerAgent(t);
    await setSwitch(t.services.database.client, "agent_waitlist", false, "test", new Date().toISOString());
    const closed = await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
    await expectProblem(closed, 503, "form-closed");
    expect(closed.headers.get("retry-after")).not.toBeNull();
    await setSwitch(t.services.database.client, "agent_waitlist", true, "test", new Date().toISOString());
    expect((await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token))).status).toBe(201);
  });
});

describe("POST /api/v1/agents/survey", () => {
  const survey = (answers: Record<string, unknown>) => ({ survey_version: "agent-survey-2026-11-01", answers });

  it("answers 201 to valid answers and 409 to a second answer", async () => {
    const { token } = await registerAgent(t);
    const answers = validSurveyAnswers(t.services.content.survey);
    const first = await t.send("POST", "/api/v1/agents/survey", survey(answers), bearer(token));
    expect(first.status).toBe(201);
    expect(validateAgainstPublishedSchema("agent-survey-received", await first.json())).toEqual([]);
    await expectProblem(
      await t.send("POST", "/api/v1/agents/survey", survey(answers), bearer(token)),
      409,
      "already-answered",
    );
  });

  it("answers 422 to answers the survey does not allow, and to another survey version", async () => {
    const { token } = await registerAgent(t);
    const problem = await expectProblem(
      await t.send(
        "POST",
        "/api/v1/agents/survey",
        { survey_version: "agent-survey-2020-01-01", answers: { no_such_question: 1 } },
        bearer(token),
      ),
      422,
      "validation-failed",
    );
    const pointers = (problem.errors as { pointer: string }[]).map((error) => error.pointer);
    expect(pointers).toContain("#/survey_version");
    expect(pointers).toContain("#/answers/no_such_question");
  });

  it("answers 401 and 403 like the waiting list", async () => {
    await expectProblem(await t.send("POST", "/api/v1/agents/survey", survey({})), 401, "unauthorized");
    const { agent_id } = await registerAgent(t);
    const { token } = await t.services.agents.issueToken(agent_id, ["waitlist:write"], null);
    await expectProblem(
      await t.send(
        "POST",
        "/api/v1/agents/survey",
        survey(validSurveyAnswers(t.services.content.survey)),
        bearer(token),
      ),
      403,
      "insufficient-scope",
    );
  });
});

describe("GET /api/v1/agents/me", () => {
  it("shows trust, scopes, and when the agent joined the list and answered the survey", async () => {
    const { token } = await registerAgent(t);
    const before = await (await t.send("GET", "/api/v1/agents/me", undefined, bearer(token))).json();
    expect(validateAgainstPublishedSchema("agent-standing", before)).toEqual([]);
    expect(before).toMatchObject({
      trust: "unverified",
      waitlist: { joined: false, joined_at: null },
      survey: { answered: false },
    });
    await t.send("POST", "/api/v1/agents/waitlist", validEntry, bearer(token));
    const after = (await (await t.send("GET", "/api/v1/agents/me", undefined, bearer(token))).json()) as {
      waitlist: { joined: boolean; joined_at: string };
    };
    expect(after.waitlist.joined).toBe(true);
    expect(Date.parse(after.waitlist.joined_at)).toBeGreaterThan(0);
  });

  it("answers 401 without a valid token", async () => {
    await expectProblem(await t.send("GET", "/api/v1/agents/me"), 401, "unauthorized");
  });

  it("keeps the table's one-row-per-agent promise across every test above", async () => {
    const rows = await t.services.database.client.execute(
      "SELECT agent_id, COUNT(*) AS n FROM agent_waitlist_entries GROUP BY agent_id HAVING n > 1",
    );
    expect(rows.rows).toEqual([]);
    expect(await countRows(t.services.database.client, "agent_waitlist_entries")).toBeGreaterThan(3);
  });
});

describe("reading the agent API from another origin", () => {
  it("lets a page elsewhere read every answer the preflight lets it ask for, once per header", async () => {
    const origin = { origin: "https://agent.example" };
    const registered = await t.send(
      "POST",
      "/api/v1/agents/register",
      { agent_name: "Cross", agent_type: "assistant", operator_type: "company" },
      { ...origin, "x-forwarded-for": "203.0.113.90" },
    );
    const { token } = (await registered.clone().json()) as { token: string };
    const answers = [
      registered,
      await t.send("GET", "/api/v1/agents/me", undefined, { ...origin, ...bearer(token) }),
      await t.send(
        "POST",
        "/api/v1/agents/waitlist",
        { ...validEntry, agent_name: 3 },
        { ...origin, ...bearer(token) },
      ),
      await t.send("GET", "/api/v1/agents/me", undefined, origin),
      await t.send("GET", "/status.json", undefined, origin),
    ];
    expect(answers.map((response) => response.status)).toEqual([201, 200, 422, 401, 200]);
    for (const response of answers) {
      // Headers.get joins repeated headers with ", ": exactly "*" means it was sent once.
      expect(response.headers.get("access-control-allow-origin"), response.url).toBe("*");
      expect(response.headers.get("access-control-expose-headers")).toContain("RateLimit");
      expect(response.headers.get("access-control-expose-headers")).toContain("Retry-After");
    }
  });
});
