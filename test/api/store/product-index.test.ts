import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setSwitch } from "../../../api/platform/state/switches-sql.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { validateAgainstPublishedSchema } from "../../helpers/site.ts";
import { createStoreApp, nextAddress, type StoreTestApp } from "../../helpers/store.ts";

interface Listing {
  data: { id: string; checkout_url: string | null }[];
}

const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-11-25",
};

async function listProductsOverMcp(t: TestApp): Promise<Listing> {
  const response = await t.app.request("/mcp", {
    method: "POST",
    headers: MCP_HEADERS,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "list_products", arguments: {} },
    }),
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { structuredContent: Listing } };
  return body.result.structuredContent;
}

async function listProducts(t: TestApp): Promise<Listing> {
  const response = await t.app.request("/api/v1/products");
  expect(response.status).toBe(200);
  const listing = (await response.json()) as Listing;
  expect(validateAgainstPublishedSchema("product-index", listing)).toEqual([]);
  expect(listing.data.length).toBeGreaterThan(0);
  return listing;
}

describe("the product index without a payment provider", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("offers no checkout address, over HTTP and MCP alike, rather than one that can only answer 503", async () => {
    const listing = await listProducts(t);
    expect(listing.data.map((product) => product.checkout_url)).toEqual(listing.data.map(() => null));
    expect(await listProductsOverMcp(t)).toEqual(listing);
  });
});

describe("the product index with a payment provider", () => {
  let store: StoreTestApp;
  beforeAll(async () => {
    store = await createStoreApp();
  });
  afterAll(() => store.close());

  it("gives each product the address where its checkout starts", async () => {
    const listing = await listProducts(store.t);
    for (const product of listing.data) expect(product.checkout_url).toMatch(/\/api\/v1\/store\/[^/]+\/checkout$/);
    const first = listing.data[0];
    const started = await store.t.send("POST", new URL(first?.checkout_url ?? "").pathname, undefined, {
      "x-forwarded-for": nextAddress(),
    });
    expect(started.status).toBe(201);
    expect(await listProductsOverMcp(store.t)).toEqual(listing);
  });

  it("offers no checkout address while staff have switched the store off", async () => {
    await setSwitch(store.t.services.database.client, "store", false, "test", new Date().toISOString());
    store.t.services.monitor.invalidate();
    try {
      const listing = await listProducts(store.t);
      expect(listing.data.map((product) => product.checkout_url)).toEqual(listing.data.map(() => null));
      expect(await listProductsOverMcp(store.t)).toEqual(listing);
    } finally {
      await setSwitch(store.t.services.database.client, "store", true, "test", new Date().toISOString());
      store.t.services.monitor.invalidate();
    }
  });
});
