import { afterEach, describe, expect, it } from "vitest";
import type { DocumentOptions, FixtureSite } from "../../../fixtures/sites/serve.ts";
import { json, page, type StaticDocument, startStaticSite } from "../../../fixtures/sites/static-site.ts";
import { checkSite, messageOf, statusOf } from "./_helpers.ts";

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

async function check(documents: Record<string, StaticDocument>) {
  site = await startStaticSite({ "/": page("<main><h1>Widgets API</h1></main>"), ...documents });
  return checkSite(site, { profile: ["api", "agent", "commerce"] });
}

const markdown = (body: string): StaticDocument => ({ type: "text/markdown; charset=utf-8", body });

const AUTH_MD = markdown(`# auth.md

You are an agent. Discover this service at /.well-known/oauth-protected-resource, then register.
`);
const protectedResource: StaticDocument = (origin) => json({ resource: origin, authorization_servers: [origin] });
const agentAuth =
  (block: Record<string, unknown>) =>
  (origin: string): DocumentOptions =>
    json({ issuer: origin, token_endpoint: `${origin}/token`, agent_auth: block });

describe("auth-md", () => {
  it("passes auth.md backed by an agent_auth block the protected-resource metadata leads to", async () => {
    const result = await check({
      "/auth.md": AUTH_MD,
      "/.well-known/oauth-protected-resource": protectedResource,
      "/.well-known/oauth-authorization-server": (origin) =>
        agentAuth({
          skill: `${origin}/auth.md`,
          register_uri: `${origin}/agent/auth`,
          identity_types_supported: ["anonymous", "identity_assertion"],
        })(origin),
    });
    expect(statusOf(result, "auth-md")).toBe("pass");
    expect(messageOf(result, "auth-md")).toBe("/auth.md with agent_auth registration (anonymous, identity_assertion)");
  });

  it("warns when auth.md stands alone, with no agent_auth metadata for agents to discover", async () => {
    const result = await check({ "/auth.md": markdown("Register by e-mailing us.\n") });
    expect(statusOf(result, "auth-md")).toBe("warn");
    expect(messageOf(result, "auth-md")).toMatch(
      /^auth\.md has no title heading .*does not point agents at \/\.well-known\/oauth-protected-resource.*missing/,
    );
  });

  it("fails an agent_auth block whose register_uri is missing or not https", async () => {
    const broken = await check({
      "/auth.md": AUTH_MD,
      "/.well-known/oauth-protected-resource": protectedResource,
      "/.well-known/oauth-authorization-server": agentAuth({ identity_types_supported: ["anonymous"] }),
    });
    expect(statusOf(broken, "auth-md")).toBe("fail");
    expect(messageOf(broken, "auth-md")).toMatch(
      /agent_auth block in \/\.well-known\/oauth-authorization-server is invalid: register_uri/,
    );
    await site?.close();
    const insecure = await check({
      "/auth.md": AUTH_MD,
      "/.well-known/oauth-protected-resource": protectedResource,
      "/.well-known/oauth-authorization-server": agentAuth({
        register_uri: "http://register.example.com/agent/auth",
        identity_types_supported: ["anonymous"],
      }),
    });
    expect(messageOf(insecure, "auth-md")).toBe(
      'agent_auth.register_uri "http://register.example.com/agent/auth" is not an https URL',
    );
  });

  it("follows agent_auth.skill to an auth.md kept elsewhere, and fails when it leads nowhere", async () => {
    const elsewhere = (skill: string): Record<string, StaticDocument> => ({
      "/docs/agents/auth.md": AUTH_MD,
      "/.well-known/oauth-protected-resource": protectedResource,
      "/.well-known/oauth-authorization-server": (origin) =>
        agentAuth({
          skill: `${origin}${skill}`,
          register_uri: `${origin}/agent/auth`,
          identity_types_supported: ["anonymous"],
        })(origin),
    });
    const found = await check(elsewhere("/docs/agents/auth.md"));
    expect(messageOf(found, "auth-md")).toBe("/docs/agents/auth.md with agent_auth registration (anonymous)");
    await site?.close();
    const lost = await check(elsewhere("/docs/moved.md"));
    expect(statusOf(lost, "auth-md")).toBe("fail");
    expect(messageOf(lost, "auth-md")).toMatch(/advertises agent registration, but there is no auth\.md$/);
  });

  it("never follows agent_auth.skill to a private address, and fails the site for pointing there", async () => {
    const result = await check({
      "/.well-known/oauth-protected-resource": protectedResource,
      "/.well-known/oauth-authorization-server": agentAuth({
        skill: "http://169.254.169.254/latest/meta-data/auth.md",
        register_uri: "https://register.example.com/agent/auth",
        identity_types_supported: ["anonymous"],
      }),
    });
    expect(statusOf(result, "auth-md")).toBe("fail");
    expect(messageOf(result, "auth-md")).toMatch(
      /^agent_auth\.skill cannot be fetched: refused http:\/\/169\.254\.169\.254\/.*link-local/,
    );
  });

  it("is n/a without auth.md or an OAuth server, and then asks for no authorization-server metadata", async () => {
    const result = await check({});
    expect(statusOf(result, "auth-md")).toBe("n/a");
    expect(site?.requests.some((request) => request.path.includes("oauth-authorization-server"))).toBe(false);
  });
});

const card = (extensions: unknown[]): StaticDocument =>
  json({
    name: "Widget shop",
    description: "Sells widgets",
    version: "1.0.0",
    url: "https://shop.example.com/a2a",
    capabilities: { extensions },
    skills: [],
  });
const AP2 = "https://github.com/google-agentic-commerce/ap2/tree/v0.1";

describe("commerce.ap2", () => {
  it("passes an AP2 extension that names its roles, the merchant's marked required", async () => {
    const result = await check({
      "/.well-known/agent-card.json": card([{ uri: AP2, required: true, params: { roles: ["merchant"] } }]),
    });
    expect(statusOf(result, "commerce.ap2")).toBe("pass");
    expect(messageOf(result, "commerce.ap2")).toBe("AP2 declared in the A2A agent card with role(s): merchant");
  });

  it("warns when a merchant does not mark AP2 required (SHOULD) and fails an extension without roles (MUST)", async () => {
    const optional = await check({
      "/.well-known/agent-card.json": card([
        { uri: "https://github.com/google-agentic-commerce/ap2/v1", params: { roles: ["merchant"] } },
      ]),
    });
    expect(statusOf(optional, "commerce.ap2")).toBe("warn");
    expect(messageOf(optional, "commerce.ap2")).toMatch(/SHOULD mark the AP2 extension required/);
    await site?.close();
    const roleless = await check({ "/.well-known/agent-card.json": card([{ uri: AP2, params: { roles: [] } }]) });
    expect(statusOf(roleless, "commerce.ap2")).toBe("fail");
    expect(messageOf(roleless, "commerce.ap2")).toMatch(/MUST name at least one AP2 role/);
  });

  it("is n/a for an agent card without AP2, and without a card", async () => {
    const without = await check({ "/.well-known/agent-card.json": card([{ uri: "https://example.com/ext/x" }]) });
    expect(messageOf(without, "commerce.ap2")).toBe("the A2A agent card declares no AP2 extension; AP2 is optional");
    await site?.close();
    const none = await check({});
    expect(statusOf(none, "commerce.ap2")).toBe("n/a");
  });
});
