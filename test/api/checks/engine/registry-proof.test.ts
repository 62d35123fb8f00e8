import { describe, expect, it } from "vitest";
import { page, type StaticDocument } from "../../../fixtures/sites/static-site.ts";
import { checkStaticSite, messageOf, statusOf } from "./_helpers.ts";

/** The proof hove.capital publishes for its MCP server (its MCP_PUBLISHING_SETUP.md), an Ed25519 key in base64. */
const KEY = "MCqGKWNKpz4LnK/M74yTVhoTQMDqGKUp5Iw5myd4UVM=";

/** A site at 127.0.0.1 (an IP address, like every loopback fixture) serving only a home page and this proof. */
function proofSite(proof: string): Record<string, StaticDocument> {
  return {
    "/": page("<h1>Weather Service</h1>"),
    "/.well-known/mcp-registry-auth": { type: "text/plain; charset=utf-8", body: `${proof}\n` },
  };
}

describe("mcp.registry on a host that is an IP address", () => {
  it("fails a published proof whose key is malformed, naming what the registry would reject", async () => {
    const hex = Buffer.from(KEY, "base64").toString("hex");
    const result = await checkStaticSite(proofSite(`v=MCPv1; k=ed25519; p=${hex}`), { profile: ["agent"] });
    expect(new URL(result.target.origin).hostname).toBe("127.0.0.1");
    expect(statusOf(result, "mcp.registry")).toBe("fail");
    expect(messageOf(result, "mcp.registry")).toMatch(/p= is 64 hex digits: the registry reads the 32-byte ed25519/);
  });

  it("fails a proof the registry cannot read at all", async () => {
    const result = await checkStaticSite(proofSite(`MCPv1 ed25519 ${KEY}`), { profile: ["agent"] });
    expect(statusOf(result, "mcp.registry")).toBe("fail");
    expect(messageOf(result, "mcp.registry")).toMatch(/does not read `v=MCPv1; k=<algorithm>; p=<base64 public key>`/);
  });

  it("passes a well-formed proof without claiming a namespace for the address", async () => {
    const result = await checkStaticSite(proofSite(`v=MCPv1; k=ed25519; p=${KEY}`), { profile: ["agent"] });
    expect(statusOf(result, "mcp.registry")).toBe("pass");
    expect(messageOf(result, "mcp.registry")).toBe(
      "127.0.0.1 is an IP address, so no card name is matched with it; a well-formed registry proof",
    );
  });

  it("stays n/a when the address publishes no proof", async () => {
    const result = await checkStaticSite({ "/": page("<h1>Weather Service</h1>") }, { profile: ["agent"] });
    expect(statusOf(result, "mcp.registry")).toBe("n/a");
    expect(messageOf(result, "mcp.registry")).toMatch(/127\.0\.0\.1 is an IP address, which has no registry namespace/);
  });
});
