import { describe, expect, it } from "vitest";
import { describePointer, openApiSchemaDefects } from "../../../../api/checks/engine/openapi/schema-defects.ts";

const BROKEN = {
  info: { title: "Orders", version: "1.0.0" },
  paths: {
    orders: { get: { responses: { "200": { description: "The orders" } } } },
    "/orders/{id}": {
      get: {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { content: { "application/json": { schema: { type: "object" } } } } },
      },
    },
    "/health": {
      get: {
        responses: {
          "200": {
            description: "Healthy",
            content: { "application/json": { schema: { type: "obj", properties: { up: { type: "bool" } } } } },
          },
        },
      },
    },
  },
};

describe("OpenAPI schema defects", () => {
  it.each(["3.0.3", "3.1.0"])(
    "lists a path without /, a response without a description and each unknown type in an OpenAPI %s document",
    async (version) => {
      const defects = await openApiSchemaDefects({ openapi: version, ...BROKEN });
      expect([...defects].sort()).toEqual(
        [
          'path "orders" does not start with /',
          "GET /orders/{id} responses.200 has no description",
          'GET /health responses.200.content.application/json.schema has an unknown type "obj"',
          'GET /health responses.200.content.application/json.schema.properties.up has an unknown type "bool"',
        ].sort(),
      );
    },
  );

  it("finds nothing wrong with a valid document", async () => {
    const valid = {
      openapi: "3.1.0",
      info: { title: "Orders", version: "1.0.0" },
      paths: { "/orders": { get: { responses: { "200": { description: "The orders" } } } } },
    };
    expect(await openApiSchemaDefects(valid)).toEqual([]);
  });

  it("names a place in the document the way its author wrote it", () => {
    expect(describePointer("/paths/~1orders~1{id}/get/responses/404")).toBe("GET /orders/{id} responses.404");
    expect(describePointer("/components/schemas/Order")).toBe("components.schemas.Order");
  });
});
