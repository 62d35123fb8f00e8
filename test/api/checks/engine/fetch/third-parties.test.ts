import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScanScope } from "../../../../../api/checks/engine/fetch/scope/scan-scope.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { ed25519KeyFromSeed, newEd25519Seed } from "../../../../../api/platform/signing/jwk.ts";
import { crawlerSigner } from "../../../../../api/platform/signing/request-signature.ts";
import type { ReadinessResult } from "../../../../../src/schemas/report.ts";
import { type FixtureSite, notFound, pathOf, send, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { checkSite, messageOf, statusOf } from "../_helpers.ts";

interface Received {
  method: string;
  path: string;
  signed: boolean;
}

const SITE_URL = "https://agent-ready.test";

/** Someone else's site, which records every request that reaches it and answers each with 200. */
let thirdParty: FixtureSite;
const reached: Received[] = [];
/** The site being checked: it points the scanner at the third party every way the probes found. */
let site: FixtureSite;
let result: ReadinessResult;

function json(value: unknown): string {
  return JSON.stringify(value);
}

beforeAll(async () => {
  thirdParty = await startFixtureSite((request, response) => {
    reached.push({
      method: request.method ?? "GET",
      path: request.url ?? "/",
      signed: request.headers["signature-agent"] !== undefined || request.headers.signature !== undefined,
    });
    send(request, response, { type: "application/json", body: '{"ok":true}' });
  });
  const elsewhere = thirdParty.origin;
  site = await startFixtureSite((request, response, origin) => {
    const path = pathOf(request);
    if (path === "/") {
      const home = `<!doctype html><html lang="en"><head><title>Aimer</title><meta name="description" content="A site that aims the scanner elsewhere"><link rel="canonical" href="/"></head><body><main><h1>Aimer</h1></main></body></html>`;
      send(request, response, { type: "text/html; charset=utf-8", body: home });
    } else if (path === "/llms.txt") {
      // A discovery document that redirects, as a downgrade to plain http, to a state-changing URL elsewhere.
      response.writeHead(302, { location: `${elsewhere}/account/delete?confirm=yes` }).end();
    } else if (path === "/openapi.json") {
      const spec = {
        openapi: "3.1.0",
        info: { title: "Aimer", version: "1" },
        servers: [{ url: `${elsewhere}/api` }],
        paths: {
          "/account/delete": {
            get: {
              summary: "Delete the account",
              responses: { "200": { description: "gone" }, "429": { description: "slow" } },
            },
          },
        },
      };
      send(request, response, { type: "application/json", body: json(spec) });
    } else if (path === "/.well-known/mcp/server-card.json") {
      const card = {
        $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
        name: "test.aimer/server",
        version: "1.0.0",
        description: "An MCP server",
        remotes: [{ type: "streamable-http", url: `${origin}/mcp`, supportedProtocolVersions: ["2025-11-25"] }],
      };
      send(request, response, { type: "application/json", body: json(card) });
    } else if (path === "/mcp" && request.method === "POST") {
      // A POST probe on the checked origin, sent on to the third party (307 keeps the method and the body).
      response.writeHead(307, { location: `${elsewhere}/api/messages` }).end();
    } else notFound(request, response);
  });
  const ring = { current: ed25519KeyFromSeed(newEd25519Seed()), previous: [] };
  const settings = defineCheckerSettings({
    allowedTargets: [site.hostPort, thirdParty.hostPort],
    siteUrl: SITE_URL,
    signer: crawlerSigner(ring, SITE_URL),
  });
  result = await checkSite(site, { settings });
});
afterAll(async () => {
  await site.close();
  await thirdParty.close();
});

describe("a checked site that aims the scanner at a third party", () => {
  it("never vouches for the scanner to the third party: nothing that reaches it is signed", () => {
    expect(reached.length).toBeGreaterThan(0);
    expect(reached.filter((request) => request.signed)).toEqual([]);
  });

  it("sends the third party no probe: no POST, no error probe, no call of an API operation", () => {
    expect(reached.filter((request) => request.method !== "GET" && request.method !== "HEAD")).toEqual([]);
    expect(reached.filter((request) => request.path.startsWith("/api/"))).toEqual([]);
  });

  it("says the API and the MCP endpoint elsewhere were not probed, and judges the redirect it did not follow", () => {
    expect(statusOf(result, "api.problem-json")).toBe("n/a");
    expect(messageOf(result, "api.problem-json")).toContain(
      `the API is on another origin (${thirdParty.origin}, from the OpenAPI servers): the scanner probes only the origin it checks`,
    );
    expect(statusOf(result, "api.ratelimit")).toBe("n/a");
    expect(messageOf(result, "mcp.live")).toContain("initialize answers 307");
  });
});

describe("which requests carry the crawler's signature", () => {
  const scope = (origin: string, allowed: readonly string[] = []) =>
    new ScanScope(origin, defineCheckerSettings({ allowedTargets: allowed }));

  it("signs https requests to the checked origin only", () => {
    expect(scope("https://example.com").signs("https://example.com/llms.txt")).toBe(true);
    expect(scope("https://example.com").signs("https://cdn.example.net/llms.txt")).toBe(false);
    expect(scope("https://example.com").signs("http://example.com/")).toBe(false);
  });

  it("signs nothing over plain http, even on a checked http origin, but an allow-listed local one (never in production)", () => {
    expect(scope("http://example.com").signs("http://example.com/robots.txt")).toBe(false);
    expect(scope("http://127.0.0.1:8080", ["127.0.0.1:8080"]).signs("http://127.0.0.1:8080/")).toBe(true);
    const production = new ScanScope("http://127.0.0.1:8080", {
      ...defineCheckerSettings({ allowedTargets: ["127.0.0.1:8080"] }),
      production: true,
    });
    expect(production.signs("http://127.0.0.1:8080/")).toBe(false);
  });
});
