import type { Server } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeDynamicBody } from "../../../../api/platform/http/encoding/dynamic-coding.ts";
import { bearer, registerAgent } from "../../../helpers/agents.ts";
import { createTestApp, type TestApp } from "../../../helpers/app.ts";
import { listenLikeTheServer, rawRequest } from "../../../helpers/raw-http.ts";
import { builtSite } from "../../../helpers/site.ts";

let t: TestApp;
let server: Server;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  const site = await builtSite();
  if (!site) throw new Error("the test build is missing");
  ({ base, server } = await listenLikeTheServer(t, site));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const get = (path: string, headers: Record<string, string> = {}) => rawRequest(base, "GET", path, headers);

describe("JSON built per request", () => {
  it("is compressed over a kilobyte for a client that accepts it, gzip first, and decodes to the same JSON", async () => {
    const identity = await get("/api/v1/tools");
    expect(identity.status).toBe(200);
    expect(identity.body.length).toBeGreaterThan(1024);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers.vary).toBe("Accept-Encoding");
    const gzip = await get("/api/v1/tools", { "accept-encoding": "gzip, deflate, br" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toBe("Accept-Encoding");
    expect(gzip.body.length).toBeLessThan(identity.body.length / 2);
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(JSON.parse(identity.body.toString()));
    const br = await get("/api/v1/tools", { "accept-encoding": "br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(JSON.parse(identity.body.toString()));
    // RFC 9110 §8.8.3: one strong validator per coding.
    expect(new Set([identity.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3);
  });

  it("honours a refusal: q=0 for every coding gets the JSON as it is", async () => {
    const answer = await get("/api/v1/tools", { "accept-encoding": "gzip;q=0, br;q=0" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toHaveProperty("data");
  });

  it("is not compressed at a kilobyte or less, nor said to vary", async () => {
    const { token } = await registerAgent(t);
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second read comes from the fast path, which must code exactly as the app does.
      const standing = await get("/api/v1/agents/me", { ...bearer(token), "accept-encoding": "gzip, br" });
      expect(standing.status).toBe(200);
      expect(standing.body.length).toBeLessThanOrEqual(1024);
      expect(standing.headers["content-encoding"]).toBeUndefined();
      expect(standing.headers.vary).toBeUndefined();
    }
    const problem = await get("/api/v1/no-such-thing", { "accept-encoding": "gzip, br" });
    expect(problem.status).toBe(404);
    expect(problem.headers["content-encoding"]).toBeUndefined();
  });

  it("gives HEAD the coding's headers without a body, and a 304 the ETag and Vary of the answer it stands for", async () => {
    const head = await rawRequest(base, "HEAD", "/api/v1/tools", { "accept-encoding": "gzip" });
    expect(head.status).toBe(200);
    expect(head.headers["content-encoding"]).toBe("gzip");
    expect(head.body.length).toBe(0);
    const coded = await get("/api/v1/tools", { "accept-encoding": "gzip" });
    const revalidated = await get("/api/v1/tools", {
      "accept-encoding": "gzip",
      "if-none-match": String(coded.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.etag).toBe(coded.headers.etag);
    expect(revalidated.headers.vary).toBe(coded.headers.vary);
    expect(revalidated.headers["content-encoding"]).toBeUndefined();
    expect(revalidated.body.length).toBe(0);
    // The identity ETag names another representation than the gzip one this client gets.
    const other = await get("/api/v1/tools", { "accept-encoding": "gzip", "if-none-match": '"not-this-one"' });
    expect(other.status).toBe(200);
  });

  it("never codes an event stream, whatever its size: each event must reach the client as it is written", () => {
    const events = "data: {}\n\n".repeat(500);
    const coded = codeDynamicBody([["Content-Type", "text/event-stream"]], events, {
      method: "GET",
      acceptEncoding: "gzip, br",
    });
    expect(coded.body).toBe(events);
    expect(coded.headers).toEqual([["Content-Type", "text/event-stream"]]);
  });
});
