import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { ardFindings } from "../../helpers/ard-conformance.ts";
import { isJson, type Json } from "../../helpers/openapi.ts";
import { siteUrl } from "../../helpers/site.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function catalogAt(path: string): Promise<Json> {
  const response = await t.app.request(path);
  expect(response.status, path).toBe(200);
  const body: unknown = await response.json();
  if (!isJson(body)) throw new Error(`${path} is not a JSON object`);
  return body;
}

const entriesOf = (catalog: Json): Json[] => (Array.isArray(catalog.entries) ? catalog.entries.filter(isJson) : []);

describe("the AI catalog, by the rules of Lighthouse's ard-schema audit", () => {
  it.each(["/.well-known/ai-catalog.json", "/.well-known/ard.json"])(
    "%s has no error and no warning, so the audit scores it 1",
    async (path) => {
      expect(ardFindings(await catalogAt(path))).toEqual({ errors: [], warnings: [] });
    },
  );

  it("lists the MCP server card and each agent skill, each answering with the type it declares", async () => {
    const entries = entriesOf(await catalogAt("/.well-known/ai-catalog.json"));
    expect(entries.map((entry) => entry.type)).toEqual([
      "application/mcp-server-card+json",
      'text/markdown; profile="urn:air:agent-skills"',
      'text/markdown; profile="urn:air:agent-skills"',
      'text/markdown; profile="urn:air:agent-skills"',
    ]);
    for (const entry of entries) {
      const url = new URL(String(entry.url));
      expect(url.origin).toBe(siteUrl());
      const response = await t.app.request(url.pathname);
      expect(response.status, url.pathname).toBe(200);
      const essence = (type: string | null) => (type ?? "").split(";")[0]?.trim();
      expect(essence(response.headers.get("content-type")), url.pathname).toBe(essence(String(entry.type)));
    }
  });

  it("would be marked down for an entry typed as an OpenAPI description, which ARD does not list", async () => {
    const catalog = await catalogAt("/.well-known/ai-catalog.json");
    const [first] = entriesOf(catalog);
    const withOpenApi = { ...catalog, entries: [{ ...first, type: "application/vnd.oai.openapi+json" }] };
    expect(ardFindings(withOpenApi).warnings).toEqual([
      "[AgentReady MCP server] media type application/vnd.oai.openapi+json is not a standard discovery type",
    ]);
  });
});
