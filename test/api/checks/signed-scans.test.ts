import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSite, startFixtureSite } from "../../fixtures/sites/serve.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { parseDictionary, verifyEd25519 } from "../../helpers/rfc9421.ts";

interface Received {
  method: string;
  url: string;
  headers: Record<string, string>;
}

let t: TestApp;
let site: FixtureSite;
const received: Received[] = [];

beforeAll(async () => {
  // A small site that redirects its homepage, so one scan request takes two hops.
  site = await startFixtureSite((request, response, origin) => {
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    received.push({ method: request.method ?? "GET", url: `${origin}${request.url ?? "/"}`, headers });
    if (request.url === "/") {
      response.writeHead(301, { location: "/home" }).end();
      return;
    }
    const html = request.url === "/home";
    response.writeHead(html ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    response.end(request.method === "HEAD" ? undefined : "<!doctype html><title>Home</title><h1>Home</h1>");
  });
  t = await createTestApp({ env: { CHECKS_ALLOWED_TARGETS: site.hostPort } });
});
afterAll(async () => {
  await t.close();
  await site.close();
});

describe("a readiness check's requests", () => {
  it("are every one signed, each hop for itself, verifiable with the keys the service's own directory publishes", async () => {
    const report = (await (await t.send("POST", "/api/v1/checks", { domain: site.origin })).json()) as {
      requests: number;
    };
    expect(received.length).toBe(report.requests);
    expect(received.length).toBeGreaterThan(5);
    const directory = (await (await t.send("GET", "/.well-known/http-message-signatures-directory")).json()) as {
      keys: Array<{ kid: string; x: string }>;
    };
    const agentUrl = new URL("/.well-known/http-message-signatures-directory", t.config.siteUrl).href;
    for (const request of received) {
      expect(parseDictionary(request.headers["signature-agent"] ?? "").get("sig1")).toEqual({
        value: agentUrl,
        params: new Map(),
      });
      const input = parseDictionary(request.headers["signature-input"] ?? "").get("sig1");
      const keyid = input && "items" in input ? input.params.get("keyid") : undefined;
      const key = directory.keys.find((candidate) => candidate.kid === keyid);
      expect(key, `${request.method} ${request.url} names a published key`).toBeDefined();
      expect(() => verifyEd25519({ request }, "sig1", key ?? { x: "" })).not.toThrow();
    }
    // The redirect's second hop was signed for its own path, not reused from the first.
    const hops = received.filter((request) => request.url.endsWith("/") || request.url.endsWith("/home"));
    expect(new Set(hops.map((hop) => hop.headers.signature)).size).toBe(hops.length);
    expect(hops.some((hop) => hop.url.endsWith("/home"))).toBe(true);
  });
});
