import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../helpers/server-process.ts";
import { testBuild } from "../helpers/test-build.ts";

let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "serve-"));
  env = { DATABASE_URL: `file:${join(dir, "service.db")}` };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the server as `npm run serve` starts it", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers liveness, pages, documents and problems over HTTP", async () => {
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: "ok" });
    const home = await fetch(server.url);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain("<h1>");
    // fetch would undo a Content-Encoding, and Content-Length counts the coded bytes: ask for none.
    const docs = await fetch(`${server.url}/api/v1/docs`, { headers: { "accept-encoding": "identity" } });
    expect(docs.headers.get("content-length")).toBe(String((await docs.arrayBuffer()).byteLength));
    const missing = await fetch(`${server.url}/api/v1/nothing`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers every address in the sitemap, pages rendered on demand included", async () => {
    const sitemap = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? "");
    expect(locations).toContain(`${server.url}/waitlist`);
    const statuses = await Promise.all(
      locations.map(async (location) => [location, (await fetch(location)).status] as const),
    );
    expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
  });

  it("stops cleanly on SIGTERM", async () => {
    const other = server;
    expect(await other.stop("SIGTERM")).toBe(0);
    server = await startServer(env);
  });
});

// A server start takes seconds, many under a loaded machine.
const STARTS = 60_000;

// Runs after the block above has stopped its server, so nothing else answers on the port.
describe("starting with bad configuration", () => {
  it(
    "refuses to serve the build under another site URL, naming both URLs and the fix",
    async () => {
      const built = testBuild().siteUrl;
      const other = "http://127.0.0.1:1";
      const refused = startServer({ ...env, SITE_URL: other });
      await expect(refused).rejects.toThrow(`The server exited with 1`);
      await expect(refused).rejects.toThrow(
        `The build was made for ${built}, but the server is configured for ${other}`,
      );
      await expect(refused).rejects.toThrow(`SITE_URL=${other} npm run build`);
      await expect(refused).rejects.toThrow(`or set SITE_URL=${built}`);
    },
    STARTS,
  );

  it(
    "warns at start in production when SERVER_SECRET is unset",
    async () => {
      const production = await startServer({ ...env, NODE_ENV: "production" });
      try {
        expect(production.output()).toContain("SERVER_SECRET is not set: download links and credit codes are signed");
        expect(production.output()).toContain('"level":"warn"');
      } finally {
        await production.stop();
      }
    },
    STARTS,
  );

  it("stops with one message naming the variable", async () => {
    await expect(startServer({ ...env, PORT: "eighty", DATABASE_URL: "postgres://nope" })).rejects.toThrow(
      /PORT: .*\n.*DATABASE_URL: must start with file:/,
    );
  });
});
