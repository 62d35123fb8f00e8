import { afterEach, describe, expect, it } from "vitest";
import { runReadinessCheck } from "../../../../api/checks/engine/run-check.ts";
import type { ReadinessResult } from "../../../../src/schemas/report.ts";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { json, page, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { messageOf, noDns, settingsFor, statusOf } from "./_helpers.ts";

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const SCHEMAS = ["/schemas/pricing.json", "/schemas/orders.json", "/schemas/status.json"];

/** A site whose API catalog links three JSON Schemas (describedby), each well formed, as our own site does. */
function siteWithThreeSchemas(): Promise<FixtureSite> {
  const schema = (path: string) => (origin: string) => ({
    type: "application/schema+json",
    body: JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", $id: `${origin}${path}` }),
  });
  return startStaticSite({
    "/": page("<h1>Orders API</h1>"),
    "/.well-known/api-catalog": (origin) => ({
      type: "application/linkset+json",
      body: JSON.stringify({
        linkset: [
          {
            anchor: `${origin}/api`,
            describedby: SCHEMAS.map((path) => ({ href: `${origin}${path}`, type: "application/schema+json" })),
          },
        ],
      }),
    }),
    "/api": json({ ok: true }),
    ...Object.fromEntries(SCHEMAS.map((path) => [path, schema(path)])),
  });
}

function checkWithin(target: FixtureSite, maxRequests?: number): Promise<ReadinessResult> {
  return runReadinessCheck({
    target: target.origin,
    settings: settingsFor(target, maxRequests === undefined ? {} : { maxRequests }),
    lookup: noDns,
    profile: ["api"],
  });
}

describe("schemas.valid at the end of the request budget", () => {
  it("judges the schemas it could read and names the one the budget left unread, rather than erroring", async () => {
    site = await siteWithThreeSchemas();
    const full = await checkWithin(site);
    expect(statusOf(full, "schemas.valid")).toBe("pass");
    expect(messageOf(full, "schemas.valid")).toMatch(/^3 schema\(s\)/);
    // The schemas are read last; with one request fewer than the whole scan used, one of them goes unread.
    const short = await checkWithin(site, full.requests - 1);
    expect(statusOf(short, "schemas.valid")).toBe("pass");
    expect(messageOf(short, "schemas.valid")).toMatch(
      /^2 schema\(s\): .*\/schemas\/\w+\.json not read to stay within the request budget/,
    );
  });

  it("has no verdict when the budget leaves every schema unread", async () => {
    site = await siteWithThreeSchemas();
    // 20 requests reach the catalog and pricing.json, which name the schemas, but leave none for the schemas
    // themselves (the kept first samples and the essential fetches come first).
    const none = await checkWithin(site, 20);
    expect(statusOf(none, "schemas.valid")).toBe("error");
    expect(messageOf(none, "schemas.valid")).toMatch(/no linked schema could be read within the scan's request budget/);
  });
});
