import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paidOperations } from "../../../../api/checks/engine/openapi/paid-operations.ts";
import { openApiServers } from "../../../../api/checks/engine/openapi/servers.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { json, page, type StaticDocument, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

const CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"';
const ok = { description: "OK" };
const paid = { "200": ok, "402": { description: "Payment Required" } };

/** x402 v2's own example requirement (specs/transports-v2/http.md), base64 in the PAYMENT-REQUIRED header. */
const PAYMENT_REQUIRED = Buffer.from(
  JSON.stringify({
    x402Version: 2,
    resource: { url: "https://api.example.com/premium-data" },
    accepts: [
      {
        scheme: "exact",
        network: "eip155:84532",
        amount: "10000",
        asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
        payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
        maxTimeoutSeconds: 60,
      },
    ],
  }),
).toString("base64");

function catalog(anchor: (origin: string) => string) {
  return (origin: string) => ({
    ...json({
      linkset: [{ anchor: anchor(origin), "service-desc": [{ href: `${origin}/openapi.json` }] }],
    }),
    type: CATALOG_TYPE,
  });
}

/** A site serving a home page and these documents, checked once. */
const scan = (documents: Readonly<Record<string, StaticDocument>>): Promise<ReadinessResult> =>
  checkStaticSite({ "/": page("<main><h1>API</h1></main>"), ...documents });

describe("OpenAPI servers, resolved once for every check", () => {
  it("resolves a relative server against the document, takes variables' defaults, and reads no servers as /", () => {
    const document = "https://host.example/docs/openapi.json";
    const urls = (spec: Record<string, unknown>) => openApiServers(spec, document).map((server) => server.url.href);
    expect(urls({ openapi: "3.1.0", servers: [{ url: "/api/v3" }] })).toEqual(["https://host.example/api/v3"]);
    expect(urls({ openapi: "3.1.0", servers: [{ url: "v1" }] })).toEqual(["https://host.example/docs/v1"]);
    expect(
      urls({
        openapi: "3.0.3",
        servers: [
          {
            url: "https://{region}.host.example/{base}",
            variables: { region: { default: "eu" }, base: { default: "v2" } },
          },
        ],
      }),
    ).toEqual(["https://eu.host.example/v2"]);
    expect(urls({ openapi: "3.1.0", servers: [] })).toEqual(["https://host.example/"]);
    expect(openApiServers({ openapi: "3.1.0" }, document)[0]?.declared).toBe(false);
    expect(urls({ swagger: "2.0", host: "api.host.example", basePath: "/v1", schemes: ["https"] })).toEqual([
      "https://api.host.example/v1",
    ]);
  });

  it("finds paid operations at the server's base path, with path parameters from examples, enums and defaults", () => {
    const spec = {
      openapi: "3.1.0",
      servers: [{ url: "https://host.example/api/v1" }],
      components: { parameters: { Id: { name: "id", in: "path", required: true, examples: { one: { value: 42 } } } } },
      paths: {
        "/items/{id}": { parameters: [{ $ref: "#/components/parameters/Id" }], get: { responses: paid } },
        "/reports/{kind}": {
          get: { parameters: [{ name: "kind", in: "path", schema: { enum: ["daily", "weekly"] } }], responses: paid },
        },
        "/feeds/{format}": {
          get: { parameters: [{ name: "format", in: "path", schema: { default: "json" } }], responses: paid },
        },
        "/orders/{orderId}": { get: { parameters: [{ name: "orderId", in: "path" }], responses: paid } },
        "/orders": { post: { responses: paid } },
        "/free": { get: { responses: { "200": ok } } },
      },
    };
    const found = paidOperations(spec, "https://host.example/openapi.json", "https://host.example");
    expect(found.probeable.map((operation) => operation.url.pathname)).toEqual([
      "/api/v1/items/42",
      "/api/v1/reports/daily",
      "/api/v1/feeds/json",
    ]);
    expect(found.unprobed).toEqual([
      "GET /orders/{orderId} (no example for orderId)",
      "POST /orders (the scan sends only GET)",
    ]);
    expect(paidOperations(spec, "https://docs.example/openapi.json", "https://docs.example").unprobed).toContain(
      "GET /items/{id} (its server https://host.example/api/v1 is not on the checked origin)",
    );
  });
});

describe("wk.consistency compares what the base URLs mean, not their strings", () => {
  let nested: ReadinessResult;
  let schemeOnly: ReadinessResult;
  let elsewhere: ReadinessResult;
  let both: ReadinessResult;
  beforeAll(async () => {
    const spec = (servers: unknown[] | undefined) => (origin: string) =>
      json({
        openapi: "3.1.0",
        info: { title: "Store", version: "1.0.0" },
        ...(servers === undefined
          ? {}
          : { servers: servers.map((url) => ({ url: String(url).replace("{origin}", origin) })) }),
        paths: { "/api/v3/store/inventory": { get: { responses: { "200": ok } } } },
      });
    [nested, schemeOnly, elsewhere, both] = await Promise.all([
      scan({
        "/.well-known/api-catalog": catalog((origin) => `${origin}/api/v3/store`),
        "/openapi.json": spec(["{origin}"]),
      }),
      scan({
        "/.well-known/api-catalog": catalog((origin) => `${origin.replace("http:", "https:")}/api/v3/store`),
        "/openapi.json": spec(undefined),
      }),
      scan({
        "/.well-known/api-catalog": catalog((origin) => `${origin}/api/v3/store`),
        "/openapi.json": spec(["{origin}/other"]),
      }),
      scan({
        "/.well-known/api-catalog": catalog((origin) => `${origin.replace("http:", "https:")}/api/v3/store`),
        "/openapi.json": spec(["{origin}", "{origin}/other"]),
      }),
    ]);
  }, 60_000);

  it("agrees when the api-catalog's anchor lies under the server, where the description's paths go", () => {
    expect(statusOf(nested, "wk.consistency"), messageOf(nested, "wk.consistency")).toBe("pass");
  });

  it("warns, naming the scheme, when the catalog and a description without servers differ only in scheme", () => {
    expect(statusOf(schemeOnly, "wk.consistency")).toBe("warn");
    expect(messageOf(schemeOnly, "wk.consistency")).toMatch(
      /default server http:\/\/127\.0\.0\.1:\d+\/ \(it declares no servers, so the document's origin\) differs only in scheme from the api-catalog's https:\/\/127\.0\.0\.1:\d+\/api\/v3\/store \(http vs https\)/,
    );
  });

  it("still fails a server whose operations are not under any API the catalog lists", () => {
    expect(statusOf(elsewhere, "wk.consistency")).toBe("fail");
    expect(messageOf(elsewhere, "wk.consistency")).toMatch(
      /OpenAPI server http:\/\/127\.0\.0\.1:\d+\/other is not an API/,
    );
  });

  it("names the scheme that differs beside a server that fails, rather than hiding it", () => {
    expect(statusOf(both, "wk.consistency")).toBe("fail");
    expect(messageOf(both, "wk.consistency")).toMatch(
      /\/other is not an API the api-catalog lists; also: OpenAPI server http:\/\/127\.0\.0\.1:\d+ differs only in scheme/,
    );
  });
});

describe("commerce.x402 finds paid operations where the OpenAPI description puts them", () => {
  let probed: ReadinessResult;
  let unprobeable: ReadinessResult;
  let site: FixtureSite;
  beforeAll(async () => {
    const described = (origin: string) =>
      json({
        openapi: "3.1.0",
        info: { title: "Data", version: "1.0.0" },
        servers: [{ url: `${origin}/api/v1` }],
        paths: {
          "/prices/{symbol}": {
            get: { parameters: [{ name: "symbol", in: "path", required: true, example: "SOL" }], responses: paid },
          },
        },
      });
    site = await startStaticSite({
      "/": page("<main><h1>Data</h1></main>"),
      "/openapi.json": described,
      "/api/v1/prices/SOL": {
        status: 402,
        type: "application/json",
        body: "{}",
        headers: { "payment-required": PAYMENT_REQUIRED },
      },
    });
    [probed, unprobeable] = await Promise.all([
      checkSite(site),
      scan({
        "/openapi.json": (origin: string) =>
          json({
            openapi: "3.1.0",
            info: { title: "Reports", version: "1.0.0" },
            servers: [{ url: `${origin}/api/v1` }],
            paths: {
              "/reports/{reportId}": { get: { parameters: [{ name: "reportId", in: "path" }], responses: paid } },
              "/reports": { post: { responses: paid } },
            },
          }),
      }),
    ]);
  }, 60_000);
  afterAll(() => site.close());

  it("asks the templated path under the server's base path, filled from the parameter's example", () => {
    expect(statusOf(probed, "commerce.x402")).toBe("pass");
    expect(messageOf(probed, "commerce.x402")).toMatch(
      /GET \/api\/v1\/prices\/SOL \(from the OpenAPI description\) answers 402/,
    );
  });

  it("names the documented-paid operations it could not ask instead of saying none is advertised", () => {
    expect(statusOf(unprobeable, "commerce.x402")).toBe("n/a");
    const message = messageOf(unprobeable, "commerce.x402");
    expect(message).toContain("GET /reports/{reportId} (no example for reportId)");
    expect(message).toContain("POST /reports (the scan sends only GET)");
    expect(message).not.toMatch(/no endpoint/);
  });
});

describe("the API base of a description whose server is relative", () => {
  it("probes the API where the relative server puts it, not at the conventional /api", async () => {
    const result = await scan({
      "/openapi.json": json({
        openapi: "3.0.2",
        info: { title: "Petstore", version: "1.0.0" },
        servers: [{ url: "/v3" }],
        paths: { "/pet/findByStatus": { get: { responses: { "200": ok } } } },
      }),
    });
    expect(messageOf(result, "api.problem-json")).toMatch(/GET \/v3\/__nonexistent__/);
  }, 60_000);
});
