import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withHotRoutes } from "../../../api/fast-path/hot-routes.ts";
import { createLogger } from "../../../api/platform/log.ts";
import { createApp, hotRoutesFor } from "../../../api/wiring/app.ts";
import { bearer, expectProblem, registerAgent, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { builtSite, validateAgainstPublishedSchema } from "../../helpers/site.ts";

// The real listener the server uses (hot routes in front of the app) on a real socket, with a
// counter on the way to the app: it tells which path answered, which a client cannot see.
const lines: string[] = [];
let t: TestApp;
let server: Server;
let base: string;
let appAnswered = 0;

beforeAll(async () => {
  t = await createTestApp({ stateTtlMs: 60_000 });
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(...chunk.toString().trim().split("\n"));
      done();
    },
  });
  const log = createLogger("info", sink);
  const app = toNodeHandler(createApp({ config: t.config, log, site: await builtSite(), services: t.services }));
  const listener = withHotRoutes(hotRoutesFor(t.services, null, log), (request, response) => {
    appAnswered++;
    return app(request, response);
  });
  server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const me = (headers: Record<string, string> = {}, method = "GET", path = "/api/v1/agents/me") =>
  fetch(`${base}${path}`, { method, headers });

/** Which path answers `request`: "hot" when the app was not asked. */
async function answeredBy<T>(request: () => Promise<T>): Promise<{ by: "hot" | "app"; result: T }> {
  const before = appAnswered;
  const result = await request();
  return { by: appAnswered === before ? "hot" : "app", result };
}

const headersOf = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name !== "date" && name !== "x-request-id"));

describe("GET /api/v1/agents/me as a hot route", () => {
  it("answers a token read a moment ago without the app, with the app's status, headers and body", async () => {
    const { token } = await registerAgent(t);
    const first = await answeredBy(() => me(bearer(token)));
    const second = await answeredBy(() => me(bearer(token)));
    expect(first.by).toBe("app");
    expect(second.by).toBe("hot");
    expect(second.result.status).toBe(first.result.status);
    expect(second.result.statusText).toBe(first.result.statusText);
    expect(headersOf(second.result)).toEqual(headersOf(first.result));
    const [firstBody, secondBody] = [await first.result.text(), await second.result.text()];
    expect(secondBody).toBe(firstBody);
    expect(validateAgainstPublishedSchema("agent-standing", JSON.parse(secondBody))).toEqual([]);
    expect(second.result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.result.headers.get("x-request-id")).not.toBe(first.result.headers.get("x-request-id"));
  });

  it("logs the same request line as the app, with the id it answered with", async () => {
    const { token } = await registerAgent(t);
    await me(bearer(token));
    lines.length = 0;
    const { by, result } = await answeredBy(() => me({ ...bearer(token), "x-request-id": "client-chosen-id-42" }));
    expect(by).toBe("hot");
    expect(result.headers.get("x-request-id")).toBe("client-chosen-id-42");
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      {
        level: "info",
        time: expect.any(Number),
        req_id: "client-chosen-id-42",
        method: "GET",
        path: "/api/v1/agents/me",
        status: 200,
        ms: expect.any(Number),
        msg: "request",
      },
    ]);
    expect(lines.join("\n")).not.toContain(token);
  });

  it("never shows a standing older than the agent's own write", async () => {
    const { token } = await registerAgent(t);
    expect(await (await me(bearer(token))).json()).toMatchObject({ waitlist: { joined: false } });
    expect((await me(bearer(token))).status).toBe(200);
    const joined = await fetch(`${base}/api/v1/agents/waitlist`, {
      method: "POST",
      headers: { ...bearer(token), "content-type": "application/json" },
      body: JSON.stringify(validEntry),
    });
    expect(joined.status).toBe(201);
    const after = await answeredBy(() => me(bearer(token)));
    expect(after.by).toBe("app");
    expect(await after.result.json()).toMatchObject({ waitlist: { joined: true } });
    const again = await answeredBy(() => me(bearer(token)));
    expect(again.by).toBe("hot");
    expect(await again.result.json()).toMatchObject({ waitlist: { joined: true } });
  });

  it("leaves every other case to the app: no token, an unknown one, a malformed header, HEAD and a query", async () => {
    const { token } = await registerAgent(t);
    await me(bearer(token));
    const missing = await answeredBy(() => me());
    expect(missing.by).toBe("app");
    await expectProblem(missing.result, 401, "unauthorized");
    const unknown = await answeredBy(() => me(bearer(`${token.slice(0, -1)}x`)));
    expect(unknown.by).toBe("app");
    await expectProblem(unknown.result, 401, "unauthorized");
    const malformed = await answeredBy(() => me({ authorization: `Token ${token}` }));
    expect(malformed.by).toBe("app");
    await expectProblem(malformed.result, 401, "unauthorized");
    const head = await answeredBy(() => me(bearer(token), "HEAD"));
    expect(head.by).toBe("app");
    expect(head.result.status).toBe(200);
    const query = await answeredBy(() => me(bearer(token), "GET", "/api/v1/agents/me?fields=all"));
    expect(query.by).toBe("app");
    expect(query.result.status).toBe(200);
  });

  it("leaves a token whose owner is refused to the app, which says why", async () => {
    const { token, agent_id } = await registerAgent(t);
    await me(bearer(token));
    // As the staff CLI would, then the cached reading runs out (here: is dropped).
    await t.services.database.client.execute({
      sql: "UPDATE agents SET trust = 'suspended' WHERE id = ?",
      args: [agent_id],
    });
    t.services.tokenOwners.forgetAgent(agent_id);
    const refused = await answeredBy(() => me(bearer(token)));
    expect(refused.by).toBe("app");
    const problem = await expectProblem(refused.result, 401, "unauthorized");
    expect(problem.detail).toContain("suspended");
    // Cached now as suspended: still the app's refusal, never a hot 200.
    const again = await answeredBy(() => me(bearer(token)));
    expect(again.by).toBe("app");
    expect(again.result.status).toBe(401);
  });
});
