import { afterEach, describe, expect, it } from "vitest";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { page, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

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
    site = await startStaticSite({
      "/": page("<h1>Petstore</h1>"),
      "/openapi.yaml": { type: "application/yaml", body: PETSTORE_YAML },
      "/llms.txt": { type: "text/html; charset=utf-8", body: "# Petstore\n\n> Pets for sale.\n" },
    });
    const result = await checkSite(site, { profile: ["api"] });
    expect(statusOf(result, "wk.delivery")).toBe("fail");
    const message = messageOf(result, "wk.delivery");
    expect(message).toMatch(/^llms\.txt is served as text\/html/);
    expect(message).toContain("; also: OpenAPI is application/yaml rather than application/openapi+yaml");
    expect(message).not.toMatch(/openapi\+json/);
  });
});
