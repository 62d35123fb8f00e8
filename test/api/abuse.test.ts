import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/lib/registry.ts";
import { startAgentReadySite } from "../fixtures/sites/agent-ready.ts";
import type { FixtureSite } from "../fixtures/sites/serve.ts";
import { bearer, registerAgent, validEntry } from "../helpers/agents.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { NASTY_BODIES, NASTY_STRINGS } from "../helpers/nasty.ts";
import { createStoreApp, type StoreTestApp } from "../helpers/store.ts";

let store: StoreTestApp;
let t: TestApp;
let site: FixtureSite;
let token: string;
let reportId: string;
const from = (n: number) => ({ "x-forwarded-for": `100.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` });
let counter = 1;

beforeAll(async () => {
  site = await startAgentReadySite();
  // Generous limits: these tests are about bodies, not about rate limiting. Payments go to the fake provider.
  store = await createStoreApp({
    env: {
      CHECKS_ALLOWED_TARGETS: site.hostPort,
      RATE_LIMITS:
        "waitlist=100000/60,agent-writes=100000/60,agent-register=100000/60,checks=100000/60,checks-daily=100000/86400,check-payments=100000/60,store-checkout=100000/60",
    },
  });
  t = store.t;
  token = (await registerAgent(t)).token;
  // A real, locked report, so that bodies reach validation rather than stopping at 404.
  const ran = await t.send("POST", "/api/v1/checks", { domain: site.origin }, from(counter++));
  reportId = ((await ran.json()) as { id: string }).id;
});
afterAll(async () => {
  await store.close();
  await site.close();
});

/** Every write endpoint, with a valid body to mutate. */
const WRITES = [
  {
    operation: "registerAgent",
    path: () => "/api/v1/agents/register",
    valid: { agent_name: "A", agent_type: "b", operator_type: "company" },
    auth: false,
  },
  { operation: "joinAgentWaitlist", path: () => "/api/v1/agents/waitlist", valid: validEntry, auth: true },
  {
    operation: "answerAgentSurvey",
    path: () => "/api/v1/agents/survey",
    valid: { survey_version: "agent-survey-2026-11-01", answers: {} },
    auth: true,
  },
  {
    operation: "joinWaitlist",
    path: () => "/api/v1/waitlist",
    valid: { email: "a@example.com", consent: true, consent_version: "privacy-2026-11-01" },
    auth: false,
  },
  { operation: "runCheck", path: () => "/api/v1/checks", valid: { domain: "10.0.0.1" }, auth: false },
  {
    operation: "redeemCredit",
    path: () => `/api/v1/checks/${reportId}/redeem`,
    valid: { code: "7K3QD-9XW2M-PB4TR-0HC8V-J" },
    auth: false,
  },
  {
    operation: "checkoutCheck",
    path: () => `/api/v1/checks/${reportId}/checkout`,
    valid: { purchase: "pack", pack: "pack-5", email: "a@example.com" },
    auth: false,
  },
  {
    operation: "startStoreCheckout",
    path: () => "/api/v1/store/agent-readiness-checklist/checkout",
    valid: { email: "a@example.com", quantity: 1 },
    auth: false,
  },
  {
    operation: "receiveStripeWebhook",
    path: () => "/api/v1/webhooks/stripe",
    valid: { id: "evt_1", object: "event", type: "payment_intent.succeeded" },
    auth: false,
  },
] as const;

const documented = (operation: string) =>
  new Set([...(OPERATIONS.find((entry) => entry.id === operation)?.statuses ?? []), 404]);
// Nothing in any response may reveal internals or secrets.
const LEAKS =
  /agt_[0-9A-Za-z]{38}|"token_hash"|"code_hash"|\bat .*\.(?:ts|js|mjs):\d+|SQLITE_|SELECT .* FROM|sk_(?:test|live)_/;

async function send(path: string, body: string, auth: boolean, contentType = "application/json"): Promise<Response> {
  return t.app.request(path, {
    method: "POST",
    headers: { "content-type": contentType, ...from(counter++), ...(auth ? bearer(token) : {}) },
    body,
  });
}

async function expectSafe(operation: string, response: Response): Promise<void> {
  const text = await response.text();
  expect(response.status, `${operation}: ${text.slice(0, 200)}`).toBeLessThan(500);
  expect(
    documented(operation).has(response.status),
    `${operation} answered ${response.status}, not a documented status`,
  ).toBe(true);
  // A registration shows its new token once, by design; nothing else may carry one.
  expect(
    operation === "registerAgent" && response.status === 201 ? text.replace(/"token":"agt_[0-9A-Za-z]{38}"/, "") : text,
  ).not.toMatch(LEAKS);
  if (response.status >= 400) expect(response.headers.get("content-type")).toBe("application/problem+json");
}

describe("generated bodies on every write endpoint", () => {
  it.each(WRITES)(
    "$operation never answers 5xx or an undocumented status to any JSON value",
    async ({ operation, path, auth }) => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
          await expectSafe(operation, await send(path(), JSON.stringify(value), auth));
        }),
        { numRuns: 60 },
      );
    },
  );

  it.each(WRITES)(
    "$operation survives every valid body with one field replaced by a generated value",
    async ({ operation, path, valid, auth }) => {
      const fields = Object.keys(valid);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...fields),
          fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string(), fc.string({ unit: "binary" })),
          async (field, value) => {
            await expectSafe(operation, await send(path(), JSON.stringify({ ...valid, [field]: value }), auth));
          },
        ),
        { numRuns: 40 },
      );
    },
  );
});

describe("nasty strings and hostile documents", () => {
  it.each(WRITES)(
    "$operation handles every nasty string in every text field",
    async ({ operation, path, valid, auth }) => {
      const textFields = Object.entries(valid)
        .filter(([, value]) => typeof value === "string")
        .map(([key]) => key);
      for (const field of textFields) {
        for (const nasty of NASTY_STRINGS)
          await expectSafe(operation, await send(path(), JSON.stringify({ ...valid, [field]: nasty }), auth));
      }
    },
  );

  it.each(WRITES)(
    "$operation handles nesting bombs, duplicate keys, prototype keys and non-objects",
    async ({ operation, path, auth }) => {
      for (const body of NASTY_BODIES) await expectSafe(operation, await send(path(), body, auth));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it("treats a lone surrogate or invalid UTF-8 as malformed, not as a crash", async () => {
    const response = await t.app.request("/api/v1/waitlist", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
    });
    expect(response.status).toBe(400);
  });
});

describe("path parameters", () => {
  const TRAVERSALS = [
    "..",
    "../..",
    "%2e%2e",
    "%2e%2e%2f%2e%2e%2fpackage.json",
    "..%2f..%2fpackage.json",
    "....//....//etc/passwd",
    "%252e%252e%252f",
    "a/../../../../etc/passwd",
    "%00",
    "x%00.json",
    "\\..\\..\\windows",
  ];
  const TEMPLATES = [
    "/api/v1/docs/{}",
    "/docs/{}",
    "/schemas/{}",
    "/schemas/{}.json",
    "/.well-known/agent-skills/{}/SKILL.md",
    "/api/v1/policies/{}",
    "/api/v1/checks/{}",
    "/api/v1/store/sessions/{}",
    "/api/v1/downloads/{}",
    "/archive/docs/{}/x",
  ];

  // Dot segments that URL parsing resolves land on another page of the site, which is fine; what
  // must never happen is a file from outside the build (package.json, /etc/passwd) or a crash.
  it.each(TEMPLATES)("%s never serves a file outside the site for a traversal attempt", async (template) => {
    for (const attack of TRAVERSALS) {
      const response = await t.app.request(template.replace("{}", attack));
      const text = await response.text();
      expect(response.status, `${template} ${attack}`).not.toBe(500);
      expect(text).not.toMatch(
        /"name": "agent-ready-service"|root:x:0:0|SERVER_SECRET|\[extensions\]|"devDependencies"/,
      );
      if (response.status === 200)
        expect(
          response.headers.get("etag"),
          `${template} ${attack} answered 200 with something not from the build`,
        ).toMatch(/^"/);
    }
  });
});

describe("guessing", () => {
  it("limits token guessing: a stream of wrong tokens from one address turns into 429", async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 25; index++) {
      const response = await t.app.request("/api/v1/agents/me", {
        headers: { authorization: `Bearer agt_${"x".repeat(38)}`, "x-forwarded-for": "100.200.1.1" },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
  });

  it("limits credit-code guessing through the per-address limit on redeeming", async () => {
    const strict = await createTestApp();
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) {
      const response = await strict.send(
        "POST",
        `/api/v1/checks/${crypto.randomUUID()}/redeem`,
        { code: "7K3QD-9XW2M-PB4TR-0HC8V-J" },
        { "x-forwarded-for": "100.201.1.1" },
      );
      statuses.push(response.status);
    }
    expect(statuses.slice(10).every((status) => status === 429)).toBe(true);
    await strict.close();
  });
});
