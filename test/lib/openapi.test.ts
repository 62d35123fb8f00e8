import { Validator } from "@seriousme/openapi-schema-validator";
import { beforeAll, describe, expect, it } from "vitest";
import { getContent } from "../../src/content/load-content.ts";
import { apiCatalogDocument } from "../../src/lib/discovery/api-catalog.ts";
import { allPublishedSchemas } from "../../src/lib/json-schemas.ts";
import { componentName } from "../../src/lib/openapi/components.ts";
import { openApiDocument } from "../../src/lib/openapi/document.ts";
import { OPERATIONS } from "../../src/lib/registry.ts";

const SITE = "https://agentready.example";
type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function at(document: unknown, ...keys: string[]): Json {
  let current: unknown = document;
  for (const key of keys) current = isJson(current) ? current[key] : undefined;
  if (!isJson(current)) throw new Error(`nothing at ${keys.join(".")}`);
  return current;
}

function resolve(document: Json, value: Json): Json {
  const ref = value.$ref;
  return typeof ref === "string" ? at(document, ...ref.slice(2).split("/")) : value;
}

function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refs(item, found);
  else if (isJson(value))
    for (const [key, member] of Object.entries(value))
      key === "$ref" && typeof member === "string" ? found.push(member) : refs(member, found);
  return found;
}

/** Where an operation lives in the document: its path item (and that item's own servers, if any). */
function locate(document: Json, path: string, method: string): { operation: Json; url: string } {
  for (const [key, item] of Object.entries(at(document, "paths"))) {
    if (!isJson(item) || !isJson(item[method])) continue;
    const servers = Array.isArray(item.servers) ? item.servers : at(document).servers;
    const base = Array.isArray(servers) && isJson(servers[0]) ? String(servers[0].url) : "";
    if (`${base}${key}` === `${SITE}${path}`) return { operation: item[method], url: `${base}${key}` };
  }
  throw new Error(`${method} ${path} is not in the document`);
}

describe("openapi.json", () => {
  let document: Json;
  beforeAll(() => {
    const content = getContent(process.cwd());
    document = openApiDocument({ content, siteUrl: SITE, docsUrl: SITE });
  });

  it("validates as OpenAPI 3.1 with an independent validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes every registry operation, under its id, with every status it can answer, a 4xx, and a problem for anything else", () => {
    for (const registered of OPERATIONS) {
      const { operation } = locate(document, registered.path, registered.method.toLowerCase());
      expect(operation.operationId).toBe(registered.id);
      expect(typeof operation.summary).toBe("string");
      const responses = at(operation, "responses");
      // An operation with no client error of its own (a document every GET gets) says what one would look like.
      const clientError = registered.statuses.some((status) => status >= 400 && status < 500) ? [] : ["4XX"];
      expect(Object.keys(responses).sort()).toEqual(
        [...registered.statuses.map(String), ...clientError, "default"].sort(),
      );
    }
    const ids = OPERATIONS.map((operation) => operation.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers every error status with an application/problem+json body of the Problem schema", () => {
    for (const registered of OPERATIONS) {
      const responses = at(locate(document, registered.path, registered.method.toLowerCase()).operation, "responses");
      for (const status of Object.keys(responses)) {
        if (status !== "default" && Number(status) < 400) continue;
        // The one exception: a badge's 404 is the neutral "not monitored" image, so an embed never breaks.
        if (registered.id === "getMonitorBadge" && status === "404") {
          expect(Object.keys(at(responses, status, "content"))).toEqual(["image/svg+xml"]);
          continue;
        }
        const resolved = resolve(document, at(responses, status));
        expect(Object.keys(at(resolved, "content")), `${registered.id} ${status}`).toEqual([
          "application/problem+json",
        ]);
        expect(at(resolved, "content", "application/problem+json", "schema")).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
    }
  });

  it("gives request and success bodies the schemas /schemas/ publishes, and every $ref resolves", () => {
    const published = allPublishedSchemas(getContent(process.cwd()), SITE);
    const components = at(document, "components", "schemas");
    for (const name of published.keys()) expect(components, name).toHaveProperty(componentName(name));
    for (const registered of OPERATIONS) {
      const { operation } = locate(document, registered.path, registered.method.toLowerCase());
      if (registered.requestSchema) {
        expect(at(operation, "requestBody", "content", "application/json", "schema")).toEqual({
          $ref: `#/components/schemas/${componentName(registered.requestSchema)}`,
        });
      }
      if (registered.response) {
        const success = String(registered.statuses.find((status) => status < 300));
        const type = registered.responseType ?? "application/json";
        expect(at(operation, "responses", success, "content", type, "schema")).toEqual({
          $ref: `#/components/schemas/${componentName(registered.response)}`,
        });
      }
    }
    for (const ref of refs(document)) expect(() => at(document, ...ref.slice(2).split("/")), ref).not.toThrow();
  });

  it("names the scope each agent operation needs on a bearer scheme and on its resource's OAuth scheme, and documents the scopes", () => {
    const scheme = at(document, "components", "securitySchemes", "agentToken");
    expect(scheme).toMatchObject({ type: "http", scheme: "bearer" });
    expect(Object.keys(at(scheme, "x-scopes")).sort()).toEqual(["monitors:write", "survey:write", "waitlist:write"]);
    for (const name of ["oauth", "oauthMcpAgent"]) {
      const oauth = at(document, "components", "securitySchemes", name);
      expect(oauth).toMatchObject({
        type: "oauth2",
        flows: { authorizationCode: { authorizationUrl: expect.stringMatching(/\/oauth\/authorize$/) } },
      });
      expect(Object.keys(at(oauth, "flows", "authorizationCode", "scopes")).sort()).toEqual([
        "monitors:write",
        "survey:write",
        "waitlist:write",
      ]);
    }
    for (const registered of OPERATIONS) {
      const { operation } = locate(document, registered.path, registered.method.toLowerCase());
      if (registered.authentication.type === "none") expect(operation.security, registered.id).toEqual([]);
      else {
        const scopes = registered.authentication.scope ? [registered.authentication.scope] : [];
        // A token for the agent MCP endpoint is not one for the API: each operation names its own resource's scheme.
        const oauth = registered.path === "/mcp/agent" ? "oauthMcpAgent" : "oauth";
        expect(operation.security, registered.id).toEqual([{ agentToken: scopes }, { [oauth]: scopes }]);
      }
    }
  });

  it("documents RateLimit headers on rate-limited operations and Retry-After on 429 and 503", () => {
    for (const registered of OPERATIONS.filter((operation) => operation.rateLimit)) {
      const responses = at(locate(document, registered.path, registered.method.toLowerCase()).operation, "responses");
      const success = at(responses, String(registered.statuses.find((status) => status < 300)));
      expect(Object.keys(at(success, "headers")).sort(), registered.id).toEqual(["RateLimit", "RateLimit-Policy"]);
      expect(Object.keys(at(resolve(document, at(responses, "429")), "headers")).sort()).toEqual([
        "RateLimit",
        "RateLimit-Policy",
        "Retry-After",
      ]);
    }
    expect(at(resolve(document, { $ref: "#/components/responses/Problem503" }), "headers")).toHaveProperty(
      "Retry-After",
    );
  });

  it("serves from the API base the api-catalog anchors, and from the site root where an operation lives outside it", () => {
    const catalog = apiCatalogDocument(
      { content: getContent(process.cwd()), siteUrl: SITE, docsUrl: SITE },
      { openapi: true, schemaNames: [] },
    );
    const anchors = catalog.linkset.map((context) => context.anchor);
    const servers = (document.servers as { url: string }[]).map((server) => server.url);
    expect(servers).toEqual([`${SITE}/api/v1`]);
    for (const url of servers) expect(anchors).toContain(url);
    expect(locate(document, "/health", "get").url).toBe(`${SITE}/health`);
    expect(locate(document, "/mcp", "post").url).toBe(`${SITE}/mcp`);
    expect(locate(document, "/api/v1/checks", "post").url).toBe(`${SITE}/api/v1/checks`);
  });

  it("carries the service's name and version, like every other discovery document", () => {
    const { service } = getContent(process.cwd());
    expect(at(document, "info")).toMatchObject({ title: `${service.name} API`, version: service.version });
  });
});
