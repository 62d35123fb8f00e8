import { readdir, readFile, stat } from "node:fs/promises";
import type { Server } from "node:http";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteFiles, StaticRoute } from "../../../api/site/site-files.ts";
import { staticAnswer } from "../../../api/site/static-answer.ts";
import { COMPRESS_MIN_BYTES, isCompressibleType } from "../../../src/lib/compression.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { listenLikeTheServer, rawRequest } from "../../helpers/raw-http.ts";
import { builtSite } from "../../helpers/site.ts";
import { testBuild } from "../../helpers/test-build.ts";

let t: TestApp;
let site: SiteFiles;
let server: Server;
let base: string;
const clientDir = () => join(testBuild().distDir, "client");
const get = (path: string, headers: Record<string, string> = {}) => rawRequest(base, "GET", path, headers);

beforeAll(async () => {
  t = await createTestApp();
  const built = await builtSite();
  if (!built) throw new Error("the test build is missing");
  site = built;
  ({ base, server } = await listenLikeTheServer(t, site));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const servedFiles = () => [...site.routes.values()].filter((route) => !route.entry.live);
const compressible = (route: StaticRoute) =>
  route.entry.bytes > COMPRESS_MIN_BYTES && isCompressibleType(route.entry.type);
const varyOf = (header: string | undefined) => (header ?? "").split(",").map((name) => name.trim());

describe("precompressed static files", () => {
  it("sends every text file over a kilobyte in br and in gzip, each decoding to the exact bytes as built", async () => {
    const files = servedFiles().filter(compressible);
    expect(files.length).toBeGreaterThan(50);
    for (const route of files) {
      const identity = await get(route.url);
      const br = await get(route.url, { "accept-encoding": "br" });
      const gzip = await get(route.url, { "accept-encoding": "gzip" });
      expect(identity.headers["content-encoding"], route.url).toBeUndefined();
      expect(identity.body.equals(await readFile(join(clientDir(), route.entry.file))), route.url).toBe(true);
      expect(br.headers["content-encoding"], route.url).toBe("br");
      expect(brotliDecompressSync(br.body).equals(identity.body), route.url).toBe(true);
      expect(br.body.length, route.url).toBeLessThan(identity.body.length);
      expect(gzip.headers["content-encoding"], route.url).toBe("gzip");
      expect(gunzipSync(gzip.body).equals(identity.body), route.url).toBe(true);
      for (const answer of [identity, br, gzip])
        expect(varyOf(answer.headers.vary), route.url).toContain("Accept-Encoding");
      const etags = new Set([identity, br, gzip].map((answer) => answer.headers.etag));
      expect(etags.size, `${route.url} has one ETag per coding`).toBe(3);
    }
  });

  it("answers a matching If-None-Match with 304 per coding, and the other coding's ETag with the body", async () => {
    const route = site.routes.get("/docs/quickstart");
    if (!route) throw new Error("no /docs/quickstart in the build");
    const br = await get(route.url, { "accept-encoding": "br" });
    const gzip = await get(route.url, { "accept-encoding": "gzip" });
    const brEtag = String(br.headers.etag);
    const revalidated = await get(route.url, { "accept-encoding": "br", "if-none-match": brEtag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(brEtag);
    expect(varyOf(revalidated.headers.vary)).toEqual(["Accept", "Accept-Encoding"]);
    const gzipRevalidated = await get(route.url, {
      "accept-encoding": "gzip",
      "if-none-match": String(gzip.headers.etag),
    });
    expect(gzipRevalidated.status).toBe(304);
    // A cached gzip copy is not the br representation: the client gets the br body.
    const switched = await get(route.url, { "accept-encoding": "br", "if-none-match": String(gzip.headers.etag) });
    expect(switched.status).toBe(200);
    expect(switched.headers["content-encoding"]).toBe("br");
    const plain = await get(route.url, { "if-none-match": brEtag });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip;q=1, br;q=0.5", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, gzip;q=0", undefined],
    ["*", "br"],
    ["br;q=0, *", "gzip"],
    ["*;q=0.5, br;q=0", undefined],
    ["identity", undefined],
    ["gzip;q=0.5, identity", undefined],
    ["x-gzip", "gzip"],
    ["", undefined],
  ])("honours Accept-Encoding %j by sending %s", async (acceptEncoding, coding) => {
    const answer = await get("/docs/quickstart", { "accept-encoding": acceptEncoding });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe(coding);
  });

  it("sends no coding when the request has no Accept-Encoding, still saying the answer varies by it", async () => {
    const answer = await get("/api/v1/docs");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(varyOf(answer.headers.vary)).toEqual(["Accept-Encoding"]);
  });

  it("merges Vary for a Markdown twin answering its page's URL, coded too", async () => {
    const answer = await get("/docs/quickstart", { accept: "text/markdown", "accept-encoding": "gzip, br" });
    expect(answer.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(varyOf(answer.headers.vary)).toEqual(["Accept", "Accept-Encoding"]);
    const twin = await get("/docs/quickstart.md");
    expect(brotliDecompressSync(answer.body).equals(twin.body)).toBe(true);
  });

  it("gives HEAD the headers GET gets, with the coded length", async () => {
    const get1 = await get("/docs/quickstart", { "accept-encoding": "br" });
    const head = await rawRequest(base, "HEAD", "/docs/quickstart", { "accept-encoding": "br" });
    expect(head.body.length).toBe(0);
    expect(head.headers["content-encoding"]).toBe("br");
    expect(head.headers.etag).toBe(get1.headers.etag);
    expect(head.headers["content-length"]).toBe(String(get1.body.length));
  });

  it("never codes a file of a kilobyte or less, nor binary files (Pagefind's WebAssembly and index), nor says Vary for them", async () => {
    const small = servedFiles().filter((route) => isCompressibleType(route.entry.type) && !compressible(route));
    const opaque = servedFiles().filter((route) => !isCompressibleType(route.entry.type));
    expect(small.length).toBeGreaterThan(0);
    expect(opaque.some((route) => route.url.endsWith(".pagefind"))).toBe(true);
    for (const route of [...small, ...opaque]) {
      const answer = await get(route.url, { "accept-encoding": "br, gzip" });
      expect(answer.headers["content-encoding"], route.url).toBeUndefined();
      if (!route.markdownTwin) expect(varyOf(answer.headers.vary), route.url).not.toContain("Accept-Encoding");
    }
  });

  it("answers from the copies the build wrote, read once at start: no request compresses anything", async () => {
    const route = site.routes.get("/docs/quickstart");
    const stored = route?.coded.br;
    if (!route || !stored) throw new Error("no br copy of /docs/quickstart in memory");
    const request = { method: "GET", accept: null, acceptEncoding: "br", ifNoneMatch: null };
    // The very buffer loaded at start, twice: a compressor would hand out a new one each time.
    expect(staticAnswer(site, route, request).body).toBe(stored.body);
    expect(staticAnswer(site, route, request).body).toBe(stored.body);
    const onDisk = await readFile(join(clientDir(), route.entry.encodings?.br?.file ?? "missing"));
    expect((await get(route.url, { "accept-encoding": "br" })).body.equals(onDisk)).toBe(true);
  });
});

describe("the build's precompressed copies", () => {
  it("writes .br and .gz only beside text files over a kilobyte, and beside every one of them", async () => {
    const dir = clientDir();
    const files = (await readdir(dir, { recursive: true })).map(String);
    const coded = files.filter((file) => file.endsWith(".br") || file.endsWith(".gz"));
    expect(coded.length).toBeGreaterThan(100);
    for (const file of coded) {
      const original = file.replace(/\.(br|gz)$/, "");
      expect((await stat(join(dir, original))).size, file).toBeGreaterThan(COMPRESS_MIN_BYTES);
    }
    for (const route of servedFiles().filter(compressible)) {
      expect(files, route.entry.file).toContain(`${route.entry.file}.br`);
      expect(files, route.entry.file).toContain(`${route.entry.file}.gz`);
      expect(route.entry.encodings?.br?.bytes, route.entry.file).toBe(
        (await stat(join(dir, `${route.entry.file}.br`))).size,
      );
    }
  });
});

describe("live discovery documents", () => {
  // A frozen clock: each document carries its state reading's time, so a fixed one gives the same
  // bytes on every request, as requests within one reading get in production.
  let frozen: TestApp;
  let liveServer: Server;
  let liveBase: string;
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(liveBase, "GET", path, headers);
  beforeAll(async () => {
    frozen = await createTestApp({ now: () => new Date("2026-11-24T12:00:00.000Z") });
    ({ base: liveBase, server: liveServer } = await listenLikeTheServer(frozen, site));
  });
  afterAll(async () => {
    await new Promise((resolve) => liveServer.close(resolve));
    await frozen.close();
  });
  const liveFiles = () => [...site.routes.values()].filter((route) => route.entry.live);

  it("compresses every live document over a kilobyte per request, in gzip and br, decoding to the identity answer", async () => {
    let coded = 0;
    for (const route of liveFiles()) {
      const identity = await get(route.url);
      expect(identity.status, route.url).toBe(200);
      const large = identity.body.length > COMPRESS_MIN_BYTES;
      for (const [coding, decode] of [
        ["gzip", gunzipSync],
        ["br", brotliDecompressSync],
      ] as const) {
        const answer = await get(route.url, { "accept-encoding": coding });
        expect(answer.status, route.url).toBe(200);
        if (!large) {
          expect(answer.headers["content-encoding"], route.url).toBeUndefined();
          expect(varyOf(answer.headers.vary), route.url).not.toContain("Accept-Encoding");
          continue;
        }
        coded++;
        expect(answer.headers["content-encoding"], route.url).toBe(coding);
        expect(decode(answer.body).equals(identity.body), route.url).toBe(true);
        expect(varyOf(answer.headers.vary), route.url).toContain("Accept-Encoding");
        expect(answer.headers.etag, route.url).not.toBe(identity.headers.etag);
      }
    }
    // /capabilities.json, /agents.json, /pricing.json and /api/v1/products are each several kilobytes.
    expect(coded).toBeGreaterThanOrEqual(8);
  });

  it("answers If-None-Match with the ETag of the coding the client gets with 304, and the identity ETag with the coded body", async () => {
    const gzip = await get("/capabilities.json", { "accept-encoding": "gzip" });
    const identity = await get("/capabilities.json");
    const revalidated = await get("/capabilities.json", {
      "accept-encoding": "gzip",
      "if-none-match": String(gzip.headers.etag),
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(gzip.headers.etag);
    expect(varyOf(revalidated.headers.vary)).toContain("Accept-Encoding");
    const crossed = await get("/capabilities.json", {
      "accept-encoding": "gzip",
      "if-none-match": String(identity.headers.etag),
    });
    expect(crossed.status).toBe(200);
    expect(gunzipSync(crossed.body).equals(identity.body)).toBe(true);
  });
});
