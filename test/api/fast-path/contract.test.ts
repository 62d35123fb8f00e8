import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withHotRoutes } from "../../../api/fast-path/hot-routes.ts";
import { createLogger } from "../../../api/platform/log.ts";
import type { SiteFiles } from "../../../api/site/site-files.ts";
import { createApp, hotRoutesFor } from "../../../api/wiring/app.ts";
import { bearer, registerAgent, validEntry } from "../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { type RawResponse, rawRequest } from "../../helpers/raw-http.ts";
import { builtSite } from "../../helpers/site.ts";

// The contract of api/fast-path/README.md: for every request it takes, the fast path answers with the
// status, headers, body and log line the app alone would. Two real sockets, one listener each: the app
// by itself, and the server's listener (fast path in front of the same app).

interface Side {
  server: Server;
  base: string;
  lines: string[];
  appAnswers: number;
}

let t: TestApp;
let site: SiteFiles;
const sides: { app?: Side; fast?: Side } = {};

async function listen(withFastPath: boolean): Promise<Side> {
  const lines: string[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(...chunk.toString().trim().split("\n"));
      done();
    },
  });
  // Debug: static files are logged at debug level, so their lines are compared too.
  const log = createLogger("debug", sink);
  const app = toNodeHandler(createApp({ config: t.config, log, site, services: t.services }));
  const side: Side = { server: createServer(), base: "", lines, appAnswers: 0 };
  const counted = (request: Parameters<typeof app>[0], response: Parameters<typeof app>[1]) => {
    side.appAnswers++;
    return app(request, response);
  };
  side.server.on("request", withFastPath ? withHotRoutes(hotRoutesFor(t.services, site, log), counted) : counted);
  await new Promise<void>((resolve) => side.server.listen(0, "127.0.0.1", resolve));
  side.base = `http://127.0.0.1:${(side.server.address() as AddressInfo).port}`;
  return side;
}

/** Node writes these itself on both paths. */
const WRITTEN_BY_NODE = new Set(["date", "connection", "keep-alive"]);

/**
 * What crossed the socket, less what Node writes itself: every header line as sent, in its order and
 * case, and the fields as a client reads them. Not the lines of HEAD: the app answers it through a
 * Headers object, which lists fields by name and folds repeated ones (two Link lines into one), the
 * same fields in another form (RFC 9110 §5.3).
 */
function comparable(raw: RawResponse, method: string) {
  const head: string[] = [];
  for (let index = 0; index < raw.rawHeaders.length; index += 2) {
    const name = raw.rawHeaders[index] ?? "";
    if (!WRITTEN_BY_NODE.has(name.toLowerCase())) head.push(`${name}: ${raw.rawHeaders[index + 1]}`);
  }
  const { date: _date, connection: _connection, "keep-alive": _keepAlive, ...headers } = raw.headers;
  return { status: raw.status, head: method === "HEAD" ? null : head, headers, body: raw.body.toString("base64") };
}

/** The request's log line with the clock taken out. */
const logLine = (lines: string[], requestId: string) =>
  lines
    .filter((line) => line.includes(requestId))
    .map((line) => line.replace(/"time":\d+/, '"time":0').replace(/"ms":[\d.]+/, '"ms":0'));

let counter = 0;
async function both(method: string, path: string, headers: Record<string, string | string[]> = {}) {
  const { app, fast } = sides as Required<typeof sides>;
  const requestId = `contract-${++counter}-${"x".repeat(8)}`;
  const withId = { ...headers, "x-request-id": requestId };
  const before = fast.appAnswers;
  const viaApp = await rawRequest(app.base, method, path, withId);
  const viaFast = await rawRequest(fast.base, method, path, withId);
  return {
    app: comparable(viaApp, method),
    fast: comparable(viaFast, method),
    fastPathAnswered: fast.appAnswers === before,
    logs: { app: logLine(app.lines, requestId), fast: logLine(fast.lines, requestId) },
  };
}

beforeAll(async () => {
  t = await createTestApp({ stateTtlMs: 60_000 });
  const built = await builtSite();
  if (!built) throw new Error("the test build is missing");
  site = built;
  sides.app = await listen(false);
  sides.fast = await listen(true);
});
afterAll(async () => {
  for (const side of [sides.app, sides.fast]) if (side) await new Promise((resolve) => side.server.close(resolve));
  await t.close();
});

describe("the fast path, against the app alone", () => {
  it("answers every file of the build as the app does: GET, HEAD, ETags, Markdown by Accept, codings by Accept-Encoding", async () => {
    const files = [...site.routes.values()].filter((route) => !route.entry.live);
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((route) => route.coded.br).length).toBeGreaterThan(50);
    for (const route of files) {
      const variants: [string, Record<string, string>][] = [
        ["GET", {}],
        ["HEAD", {}],
        ["GET", { "if-none-match": route.entry.etag }],
        ["GET", { accept: "text/markdown, text/html;q=0.5" }],
        ["GET", { "accept-encoding": "br" }],
        ["GET", { "accept-encoding": "gzip" }],
        ["GET", { "accept-encoding": "gzip;q=1, br;q=0.8" }],
        ["GET", { "accept-encoding": "br;q=0, gzip;q=0.5, identity;q=0.1" }],
        ["GET", { "accept-encoding": "identity" }],
        ["HEAD", { "accept-encoding": "gzip, br" }],
        ["GET", { "accept-encoding": "gzip, br", "if-none-match": route.coded.br?.etag ?? route.entry.etag }],
        ["GET", { "accept-encoding": "br", accept: "text/markdown" }],
      ];
      for (const [method, headers] of variants) {
        const answer = await both(method, route.url, headers);
        const label = `${method} ${route.url} ${JSON.stringify(headers)}`;
        expect(answer.fastPathAnswered, label).toBe(true);
        expect(answer.fast, label).toEqual(answer.app);
        expect(answer.logs.fast, label).toEqual(answer.logs.app);
        expect(answer.logs.fast, label).toHaveLength(1);
      }
    }
  });

  it("answers GET /api/v1/agents/me for a token read a moment ago as the app does, log line included", async () => {
    const { token } = await registerAgent(t);
    await both("GET", "/api/v1/agents/me", bearer(token));
    const answer = await both("GET", "/api/v1/agents/me", bearer(token));
    expect(answer.fastPathAnswered).toBe(true);
    expect(answer.fast).toEqual(answer.app);
    expect(answer.logs.fast).toEqual(answer.logs.app);
    expect(answer.logs.fast).toHaveLength(1);
  });

  it("answers the standing under every Accept-Encoding as the app does, and follows a change of standing at once", async () => {
    const { token } = await registerAgent(t);
    await both("GET", "/api/v1/agents/me", bearer(token));
    const variants: Record<string, string>[] = [
      {},
      { "accept-encoding": "gzip, br" },
      { "accept-encoding": "identity" },
      { accept: "*/*" },
      // Field names are case-insensitive: the fast path takes them in any case, as the app does.
      { "ACCEPT-encoding": "gzip", Accept: "application/json" },
    ];
    for (const headers of variants) {
      const answer = await both("GET", "/api/v1/agents/me", { ...bearer(token), ...headers });
      expect(answer.fastPathAnswered, JSON.stringify(headers)).toBe(true);
      expect(answer.fast, JSON.stringify(headers)).toEqual(answer.app);
    }
    // The answer is prepared once per reading of the owner; a change made here is a new reading.
    const joined = await t.send("POST", "/api/v1/agents/waitlist", { ...validEntry }, bearer(token));
    expect(joined.status).toBe(201);
    await both("GET", "/api/v1/agents/me", bearer(token));
    const after = await both("GET", "/api/v1/agents/me", bearer(token));
    expect(after.fastPathAnswered).toBe(true);
    expect(after.fast).toEqual(after.app);
    expect(JSON.parse(Buffer.from(after.fast.body, "base64").toString())).toMatchObject({ waitlist: { joined: true } });
  });

  it("leaves a standing long enough to compress to the app, which codes it by the client's Accept-Encoding", async () => {
    const registered = await t.send(
      "POST",
      "/api/v1/agents/register",
      { agent_name: "語".repeat(200), agent_type: "型".repeat(200), operator_type: "individual" },
      { "x-forwarded-for": "198.51.100.251" },
    );
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    await both("GET", "/api/v1/agents/me", bearer(token));
    const encodings: Record<string, string>[] = [{ "accept-encoding": "gzip" }, {}];
    for (const headers of encodings) {
      const answer = await both("GET", "/api/v1/agents/me", { ...bearer(token), ...headers });
      expect(answer.fastPathAnswered, JSON.stringify(headers)).toBe(false);
      expect(answer.fast).toEqual(answer.app);
    }
    const gzipped = await both("GET", "/api/v1/agents/me", { ...bearer(token), "accept-encoding": "gzip" });
    expect(gzipped.fast.headers["content-encoding"]).toBe("gzip");
  });

  it("leaves a request that repeats a header it reads to the app, which applies its own rules for repeated fields", async () => {
    const { token } = await registerAgent(t);
    await both("GET", "/api/v1/agents/me", bearer(token));
    const cases: [string, Record<string, string | string[]>][] = [
      ["/api/v1/agents/me", { authorization: [`Bearer ${token}`, "Bearer agt_other"] }],
      ["/api/v1/agents/me", { authorization: `Bearer ${token}`, "accept-encoding": ["gzip", "br"] }],
      ["/llms.txt", { "accept-encoding": ["identity", "br"] }],
      ["/api/v1/agents/me", { AUTHORIZATION: [`Bearer ${token}`, "Bearer agt_other"] }],
      ["/llms.txt", { "If-None-Match": ['"a"', '"b"'] }],
    ];
    for (const [path, headers] of cases) {
      const answer = await both("GET", path, headers);
      expect(answer.fastPathAnswered, `${path} ${JSON.stringify(headers)}`).toBe(false);
      expect(answer.fast).toEqual(answer.app);
    }
  });

  it("leaves to the app what it does not take: live documents, other methods, query strings, unknown paths", async () => {
    for (const [method, path] of [
      ["GET", "/capabilities.json"],
      ["POST", "/llms.txt"],
      ["GET", "/llms.txt?x=1"],
      ["GET", "/no-such-file.json"],
      ["GET", "/docs/store/"],
    ] as const) {
      const answer = await both(method, path);
      expect(answer.fastPathAnswered, `${method} ${path}`).toBe(false);
    }
  });
});
