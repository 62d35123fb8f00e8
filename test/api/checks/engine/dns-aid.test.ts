import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type AgentDnsAnswer,
  AgentDnsError,
  dnsOverHttpsResolver,
} from "../../../../api/checks/engine/dns/agent-dns.ts";
import { runReadinessCheck } from "../../../../api/checks/engine/run-check.ts";
import { defineCheckerSettings } from "../../../../api/checks/engine/settings.ts";
import type { FixtureSite } from "../../../fixtures/sites/serve.ts";
import { page, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

let site: FixtureSite;
beforeAll(async () => {
  site = await startStaticSite({ "/": page("<main><h1>Agents</h1></main>") });
});
afterAll(() => site.close());

/** Checks the fixture under a host name (agents.test → loopback), since an IP address has no DNS zone. */
async function checkNamed(answers: Record<string, AgentDnsAnswer | Error>) {
  const asked: string[] = [];
  const port = new URL(site.origin).port;
  const result = await runReadinessCheck({
    target: `http://agents.test:${port}`,
    profile: ["agent"],
    settings: defineCheckerSettings({ allowedTargets: [`agents.test:${port}`], siteUrl: "https://agent-ready.test" }),
    lookup: async () => [{ address: "127.0.0.1", family: 4 }],
    agentDns: async (name) => {
      asked.push(name);
      const answer = answers[name] ?? { records: [], authenticated: false };
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });
  return { result, asked };
}

const service = (target: string, params: Record<string, string>) => ({ priority: 1, target, params });

describe("dns.aid", () => {
  it("passes DNSSEC-validated ServiceMode records at _index._agents", async () => {
    const { result, asked } = await checkNamed({
      "_index._agents.agents.test": {
        records: [service("mcp.agents.test", { alpn: "mcp", port: "443" })],
        authenticated: true,
      },
    });
    expect(asked).toEqual(["_index._agents.agents.test"]);
    expect(statusOf(result, "dns.aid")).toBe("pass");
    expect(messageOf(result, "dns.aid")).toBe(
      "1 ServiceMode record(s) at _index._agents.agents.test, DNSSEC-validated: mcp.agents.test alpn=mcp",
    );
  });

  it("follows an alias once, and warns when the answer is not DNSSEC-validated", async () => {
    const { result, asked } = await checkNamed({
      "_index._agents.agents.test": {
        records: [{ priority: 0, target: "agents.hosted.example", params: {} }],
        authenticated: true,
      },
      "agents.hosted.example": { records: [service("a2a.hosted.example", { alpn: "a2a" })], authenticated: false },
    });
    expect(asked).toEqual(["_index._agents.agents.test", "agents.hosted.example"]);
    expect(statusOf(result, "dns.aid")).toBe("warn");
    expect(messageOf(result, "dns.aid")).toMatch(/not DNSSEC-validated/);
  });

  it("fails records whose capability document is not an https URL", async () => {
    const { result } = await checkNamed({
      "_index._agents.agents.test": {
        records: [service("mcp.agents.test", { alpn: "mcp", cap: "http://agents.test/cap.json" })],
        authenticated: true,
      },
    });
    expect(statusOf(result, "dns.aid")).toBe("fail");
    expect(messageOf(result, "dns.aid")).toBe(
      'mcp.agents.test alpn=mcp: cap "http://agents.test/cap.json" is not an https URL',
    );
  });

  it("is n/a without records, and error when the lookup itself fails", async () => {
    const none = await checkNamed({});
    expect(statusOf(none.result, "dns.aid")).toBe("n/a");
    expect(messageOf(none.result, "dns.aid")).toBe(
      "no SVCB records at _index._agents.agents.test; DNS-AID is optional",
    );
    const broken = await checkNamed({
      "_index._agents.agents.test": new AgentDnsError("the resolver answered DNS status 2"),
    });
    expect(statusOf(broken.result, "dns.aid")).toBe("error");
  });

  it("asks no resolver at all for a target that is an IP address", async () => {
    let asked = 0;
    const result = await checkSite(site, {
      profile: ["agent"],
      agentDns: async () => {
        asked += 1;
        return { records: [], authenticated: false };
      },
    });
    expect(asked).toBe(0);
    expect(messageOf(result, "dns.aid")).toBe("127.0.0.1 is an IP address, which has no DNS zone to publish agents in");
  });
});

describe("the DNS-over-HTTPS resolver", () => {
  let resolver: Server;
  let endpoint = "";
  const queries: Array<{ name: string | null; type: string | null; accept: string | undefined }> = [];
  let reply: { status?: number; body: unknown } = { body: {} };
  beforeAll(async () => {
    resolver = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://resolver.invalid");
      queries.push({
        name: url.searchParams.get("name"),
        type: url.searchParams.get("type"),
        accept: request.headers.accept,
      });
      response.writeHead(reply.status ?? 200, { "content-type": "application/dns-json" });
      response.end(JSON.stringify(reply.body));
    });
    await new Promise<void>((resolve) => resolver.listen(0, "127.0.0.1", resolve));
    const address = resolver.address();
    if (address === null || typeof address === "string") throw new Error("no address");
    endpoint = `http://127.0.0.1:${address.port}/dns-query`;
  });
  afterEach(() => {
    queries.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => resolver.close(() => resolve())));

  it("asks for SVCB in the JSON format and reads presentation-format answers with the AD bit", async () => {
    reply = {
      body: {
        Status: 0,
        AD: true,
        Answer: [
          { type: 5, data: "alias.example." },
          { type: 64, data: '1 mcp.example.com. alpn="mcp,h2" port=8443 key65400="https://example.com/cap.json"' },
        ],
      },
    };
    const answer = await dnsOverHttpsResolver(endpoint)("_index._agents.example.com");
    expect(queries).toEqual([{ name: "_index._agents.example.com", type: "64", accept: "application/dns-json" }]);
    expect(answer).toEqual({
      authenticated: true,
      records: [
        {
          priority: 1,
          target: "mcp.example.com",
          params: { alpn: "mcp,h2", port: "8443", cap: "https://example.com/cap.json" },
        },
      ],
    });
  });

  it("decodes RFC 3597 generic answers from resolvers that do not know SVCB", async () => {
    // priority 1, target "a.ex", alpn ["mcp"], port 443
    const wire = "0001 01 61 02 6578 00 0001 0004 03 6d6370 0003 0002 01bb".replace(/ /g, "");
    reply = { body: { Status: 0, AD: false, Answer: [{ type: 64, data: `\\# ${wire.length / 2} ${wire}` }] } };
    const answer = await dnsOverHttpsResolver(endpoint)("_index._agents.ex");
    expect(answer.records).toEqual([{ priority: 1, target: "a.ex", params: { alpn: "mcp", port: "443" } }]);
  });

  it("reads NXDOMAIN as no records and refuses SERVFAIL and non-JSON answers as lookup failures", async () => {
    reply = { body: { Status: 3, AD: true } };
    await expect(dnsOverHttpsResolver(endpoint)("_index._agents.nowhere.example")).resolves.toEqual({
      records: [],
      authenticated: true,
    });
    reply = { body: { Status: 2 } };
    await expect(dnsOverHttpsResolver(endpoint)("_index._agents.broken.example")).rejects.toThrow(/DNS status 2/);
    reply = { status: 502, body: "bad gateway" };
    await expect(dnsOverHttpsResolver(endpoint)("_index._agents.example.com")).rejects.toBeInstanceOf(AgentDnsError);
  });
});
