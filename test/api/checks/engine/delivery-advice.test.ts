import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { page } from "../../../fixtures/sites/static-site.ts";
import { checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

// The Swagger Petstore's description, cut to one operation, in the YAML its repository publishes.
const PETSTORE_YAML = `openapi: 3.0.4
info:
  title: Swagger Petstore - OpenAPI 3.0
  version: 1.0.27
servers:
  - url: /api/v3
paths:
  /pet/{petId}:
    get:
      summary: Find pet by ID.
      operationId: getPetById
      parameters:
        - name: petId
          in: path
          required: true
          schema:
            type: integer
            format: int64
      responses:
        "200":
          description: successful operation
`;

describe("wk.delivery's advice", () => {
  it("asks a YAML description for a YAML OpenAPI media type, and names the caution beside a failing type", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Petstore</h1>"),
        "/openapi.yaml": { type: "application/yaml", body: PETSTORE_YAML },
        "/llms.txt": { type: "text/html; charset=utf-8", body: "# Petstore\n\n> Pets for sale.\n" },
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "wk.delivery")).toBe("fail");
    const message = messageOf(result, "wk.delivery");
    expect(message).toMatch(/^llms\.txt is served as text\/html/);
    expect(message).toContain("; also: OpenAPI is application/yaml rather than application/openapi+yaml");
    expect(message).not.toMatch(/openapi\+json/);
  });

  it("advises the YAML media types to a YAML description served as JSON, never a JSON one", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Petstore</h1>"),
        "/openapi.yaml": { type: "application/json", body: PETSTORE_YAML },
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "wk.delivery")).toBe("fail");
    expect(messageOf(result, "wk.delivery")).toMatch(
      /^OpenAPI is served as application\/json, not application\/openapi\+yaml, application\/vnd\.oai\.openapi, application\/yaml or text\/yaml(;|$)/,
    );
  });

  it("advises the JSON media types to a JSON description served as YAML", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Petstore</h1>"),
        "/openapi.json": { type: "text/yaml", body: JSON.stringify(parse(PETSTORE_YAML), null, 2) },
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "wk.delivery")).toBe("fail");
    expect(messageOf(result, "wk.delivery")).toMatch(
      /^OpenAPI is served as text\/yaml, not application\/openapi\+json, application\/vnd\.oai\.openapi\+json or application\/json(;|$)/,
    );
  });
});

describe("wk.delivery's passing message", () => {
  it("claims no CORS or ETag/304 for a site whose discovery documents are all text", async () => {
    const result = await checkStaticSite(
      {
        "/": page("<h1>Petstore</h1>"),
        "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\n", discovery: true },
        "/llms.txt": { type: "text/plain", body: "# Petstore\n\n> Pets for sale.\n", discovery: true },
      },
      { profile: ["content"] },
    );
    expect(statusOf(result, "wk.delivery")).toBe("pass");
    expect(messageOf(result, "wk.delivery")).toBe("2 discovery documents with correct types and caching");
  });

  it("counts the JSON documents with an ETag apart from the few revalidated with 304", async () => {
    const json = (value: unknown) => ({ type: "application/json", body: JSON.stringify(value), discovery: true });
    const result = await checkStaticSite(
      {
        "/": page("<h1>Petstore</h1>"),
        "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\n", discovery: true },
        "/openapi.json": {
          ...json(parse(PETSTORE_YAML)),
          type: "application/openapi+json",
        },
      },
      { profile: ["api"] },
    );
    expect(statusOf(result, "wk.delivery")).toBe("pass");
    expect(messageOf(result, "wk.delivery")).toBe(
      "2 discovery documents with correct types and caching; 1 JSON document(s) with CORS and an ETag (1 revalidated: 304)",
    );
  });
});
