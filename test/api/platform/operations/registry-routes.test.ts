import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../../api/platform/log.ts";
import { operationRoutes } from "../../../../api/wiring/app.ts";
import { AGENT_SCOPES, OPERATIONS, type Operation } from "../../../../src/lib/registry.ts";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";

const PARAMS: Record<string, string> = {
  id: "6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b",
  session_id: "cs_test_registry",
  token: "not-a-link",
};

const served = OPERATIONS.filter((operation) => !operation.static);
const concrete = (operation: Operation) => operation.path.replace(/\{([a-z_]+)\}/g, (_, name) => PARAMS[name] ?? "x");

let t: TestApp;
let tokenWithoutScopes: string;
let tokenWithAll: string;

beforeAll(async () => {
  t = await createTestApp();
  const identity = { agent_name: "Registry", agent_type: "test", operator_type: "company" as const };
  tokenWithoutScopes = (await t.services.agents.register(identity, "staff", [])).token;
  tokenWithAll = (await t.services.agents.register(identity, "staff", [...AGENT_SCOPES])).token;
});
afterAll(() => t.close());

async function call(operation: Operation, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return operation.method === "GET"
    ? t.send("GET", concrete(operation), undefined, headers)
    : t.send("POST", concrete(operation), {}, headers);
}

describe("every operation the server answers", () => {
  it("is served by exactly one route, and every route serves a registry operation", () => {
    const routes = operationRoutes({ config: t.config, services: t.services, log: createLogger("silent") });
    expect(routes.map((route) => route.id).sort()).toEqual(served.map((operation) => operation.id).sort());
  });

  it.each(served.filter((operation) => operation.rateLimit))(
    "$id is counted against the registry's limit ($rateLimit)",
    async (operation) => {
      const response = await call(operation, tokenWithAll);
      expect(response.headers.get("ratelimit-policy")).toMatch(new RegExp(`^"${operation.rateLimit}";`));
    },
  );

  it.each(served.filter((operation) => !operation.rateLimit))("$id is counted against no limit", async (operation) => {
    const response = await call(operation, tokenWithAll);
    expect(response.headers.get("ratelimit-policy")).toBeNull();
  });

  it.each(served.filter((operation) => operation.authentication.type === "bearer"))(
    "$id asks for a token, then for the registry's scope",
    async (operation) => {
      const anonymous = await call(operation);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
      const scope = operation.authentication.type === "bearer" ? operation.authentication.scope : null;
      const unscoped = await call(operation, tokenWithoutScopes);
      if (scope) {
        expect(unscoped.status).toBe(403);
        expect(unscoped.headers.get("www-authenticate")).toContain(`scope="${scope}"`);
      } else {
        // Any valid token will do: what follows is the operation's own answer (the agent MCP endpoint's
        // to an empty body is a 422), never a refusal of the token.
        expect([401, 403]).not.toContain(unscoped.status);
      }
    },
  );

  it.each(served.filter((operation) => operation.authentication.type === "none"))(
    "$id needs no token",
    async (operation) => {
      expect([401, 403]).not.toContain((await call(operation)).status);
    },
  );
});
