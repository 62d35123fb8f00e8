import { createServer, request, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HostLookup } from "../../../../../api/checks/engine/fetch/address-guard.ts";
import { GuardProxy } from "../../../../../api/checks/engine/render/guard/guard-proxy.ts";
import { RenderBudget } from "../../../../../api/checks/engine/render/guard/render-budget.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { type FixtureSite, startFixtureSite } from "../../../../fixtures/sites/serve.ts";
import { type LoopbackTraps, startLoopbackTraps } from "../../../../helpers/loopback-traps.ts";
import { noDns } from "../_helpers.ts";

let site: FixtureSite;
let traps: LoopbackTraps;
/** A listener on 127.0.0.2 at the site's own port: the allowance names 127.0.0.1:<port>, so it must stay unreached. */
let samePort: Server;
const samePortHits: string[] = [];

beforeAll(async () => {
  traps = await startLoopbackTraps();
  site = await startFixtureSite((_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(50_000));
  });
  samePort = createServer((incoming, response) => {
    samePortHits.push(incoming.url ?? "");
    response.end();
  });
  await new Promise<void>((resolve) => samePort.listen(Number(new URL(site.origin).port), "127.0.0.2", resolve));
});

afterAll(async () => {
  await site?.close();
  await traps?.close();
  await new Promise<void>((resolve) => samePort?.close(() => resolve()));
});

const budget = (limits: Partial<ConstructorParameters<typeof RenderBudget>[0]> = {}) =>
  new RenderBudget({ maxRequests: 20, maxBytes: 1_000_000, maxHosts: 5, ...limits });

async function proxyFor(
  allowed: string[],
  options: { lookup?: HostLookup; spend?: RenderBudget | null } = {},
): Promise<GuardProxy> {
  return GuardProxy.start({
    settings: defineCheckerSettings({ allowedTargets: allowed }),
    lookup: options.lookup ?? noDns,
    budget: options.spend === undefined ? budget() : options.spend,
    timeoutMs: 2_000,
  });
}

/** A plain proxied GET of `url`: the status and body length (0 and 0 when the connection was cut before an answer). */
function viaProxy(proxy: GuardProxy, url: string): Promise<{ status: number; length: number }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve) => {
    const outgoing = request({ host: "127.0.0.1", port, path: url, headers: { host: new URL(url).host } }, (answer) => {
      let length = 0;
      answer.on("data", (chunk: Buffer) => {
        length += chunk.length;
      });
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, length }));
      answer.on("error", () => resolve({ status: answer.statusCode ?? 0, length }));
      answer.on("close", () => resolve({ status: answer.statusCode ?? 0, length }));
    });
    outgoing.on("error", () => resolve({ status: 0, length: 0 }));
    outgoing.end();
  });
}

/** A CONNECT through the proxy: its status line's code, and the tunnel when it was opened. */
function tunnel(proxy: GuardProxy, authority: string): Promise<{ status: number; socket: Socket | null }> {
  const { port } = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: "127.0.0.1", port, method: "CONNECT", path: authority });
    outgoing.on("connect", (answer, socket) => {
      if (answer.statusCode === 200) resolve({ status: 200, socket });
      else {
        socket.destroy();
        resolve({ status: answer.statusCode ?? 0, socket: null });
      }
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
}

describe("the guard proxy a rendering goes through", () => {
  it("reaches exactly the allow-listed host:port, and nothing else on loopback", async () => {
    const proxy = await proxyFor([site.hostPort]);
    try {
      expect(await viaProxy(proxy, `${site.origin}/page`)).toEqual({ status: 200, length: 50_000 });
      for (const url of [
        `${traps.v4}/x`,
        `${traps.v4Second}/x`,
        `${traps.v6}/x`,
        `http://127.0.0.2:${new URL(site.origin).port}/x`,
      ])
        expect((await viaProxy(proxy, url)).status, url).toBe(403);
      expect((await tunnel(proxy, new URL(traps.v4).host)).status).toBe(403);
      expect(traps.hits).toEqual([]);
      expect(samePortHits).toEqual([]);
      expect(proxy.refused.map((refusal) => refusal.reason)).toContain(
        `port ${new URL(traps.v4).port} is not checked: only 80 and 443 are`,
      );
    } finally {
      await proxy.close();
    }
  });

  it("judges a name by every address it resolves to, and refuses one that points at loopback", async () => {
    const lookup: HostLookup = async (name) =>
      name === "rebind.test" ? [{ address: "127.0.0.1", family: 4 }] : noDns(name);
    const proxy = await proxyFor([], { lookup });
    try {
      expect((await tunnel(proxy, "rebind.test:443")).status).toBe(403);
      expect((await viaProxy(proxy, "http://rebind.test/")).status).toBe(403);
      expect((await viaProxy(proxy, "http://169.254.169.254/latest/meta-data/")).status).toBe(403);
      expect(proxy.refused.map((refusal) => refusal.reason)).toEqual([
        "rebind.test resolves to 127.0.0.1 is a loopback address",
        "rebind.test resolves to 127.0.0.1 is a loopback address",
        "169.254.169.254 is a link-local address (this range holds cloud metadata services)",
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("connects to the address it vetted, never asking DNS again", async () => {
    const port = new URL(site.origin).port;
    const asked: string[] = [];
    const lookup: HostLookup = async (name) => {
      asked.push(name);
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const proxy = await proxyFor([`shop.test:${port}`], { lookup });
    try {
      expect(await viaProxy(proxy, `http://shop.test:${port}/`)).toEqual({ status: 200, length: 50_000 });
      const { status, socket } = await tunnel(proxy, `shop.test:${port}`);
      expect(status).toBe(200);
      const answer = await new Promise<string>((resolve) => {
        let text = "";
        socket?.on("data", (chunk: Buffer) => {
          text += chunk.toString("latin1");
          if (text.length > 100) resolve(text);
        });
        socket?.write(`GET / HTTP/1.1\r\nHost: shop.test:${port}\r\nConnection: close\r\n\r\n`);
      });
      socket?.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
      expect(asked).toEqual(["shop.test", "shop.test"]);
    } finally {
      await proxy.close();
    }
  });

  it("refuses the browser's own services by name, before any lookup", async () => {
    const proxy = await proxyFor([]);
    try {
      for (const authority of ["accounts.google.com:443", "update.googleapis.com:443", "clients2.google.com:443"])
        expect((await tunnel(proxy, authority)).status, authority).toBe(403);
      expect(proxy.refused.map((refusal) => refusal.reason)).toEqual([
        "accounts.google.com is a browser service, not part of the checked site",
        "update.googleapis.com is a browser service, not part of the checked site",
        "clients2.google.com is a browser service, not part of the checked site",
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("spends the scan's budget: requests past it are refused and a body past its bytes is cut", async () => {
    const spend = budget({ maxRequests: 2, maxBytes: 60_000 });
    const proxy = await proxyFor([site.hostPort], { spend });
    try {
      expect((await viaProxy(proxy, `${site.origin}/1`)).length).toBe(50_000);
      expect((await viaProxy(proxy, `${site.origin}/2`)).length).toBeLessThan(50_000);
      expect((await viaProxy(proxy, `${site.origin}/3`)).status).toBe(403);
      expect(proxy.refused.at(-1)?.reason).toMatch(/budget/);
      expect(spend.connections).toBe(2);
    } finally {
      await proxy.close();
    }
  });

  it("refuses everything outside a scan (the browser's own traffic)", async () => {
    const proxy = await proxyFor([site.hostPort], { spend: null });
    try {
      expect((await viaProxy(proxy, `${site.origin}/`)).status).toBe(403);
      expect(proxy.refused[0]?.reason).toBe("the browser may reach nothing outside a scan");
    } finally {
      await proxy.close();
    }
  });
});

describe("the address the proxy listens on", () => {
  it("is loopback only, on an ephemeral port", async () => {
    const proxy = await proxyFor([]);
    try {
      const url = new URL(proxy.url);
      expect(url.hostname).toBe("127.0.0.1");
      expect(Number(url.port)).toBeGreaterThan(1024);
    } finally {
      await proxy.close();
    }
  });
});
