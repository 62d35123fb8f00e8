import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { toNodeHandler } from "h3/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { connectMcp } from "../../helpers/mcp-client.ts";
import { createStoreApp } from "../../helpers/store.ts";

interface Running {
  t: TestApp;
  server: Server;
  base: string;
}

/** The whole app on a real socket, as an MCP client meets it. */
async function serve(env: Record<string, string> = {}): Promise<Running> {
  return listen(await createTestApp({ env }));
}

async function listen(t: TestApp): Promise<Running> {
  const server = createServer(toNodeHandler(t.app));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { t, server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function stop(running: Running | undefined): Promise<void> {
  if (!running) return;
  await new Promise((resolve) => running.server.close(resolve));
  await running.t.close();
}

const connect = (base: string): Promise<Client> => connectMcp(`${base}/mcp`);

let running: Running;
let client: Client;
beforeAll(async () => {
  running = await serve();
  client = await connect(running.base);
});
afterAll(async () => {
  await client?.close();
  await stop(running);
});

/** The Markdown the site serves at a resource's URL (its path, on this socket). */
async function markdownTwin(uri: string): Promise<string> {
  const response = await fetch(`${running.base}${new URL(uri).pathname}`);
  expect(response.status, uri).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/markdown/);
  return response.text();
}

describe("MCP resources", () => {
  it("declares resources and prompts at initialize, as the server card does", async () => {
    const card = (await (await fetch(`${running.base}/.well-known/mcp/server-card.json`)).json()) as {
      capabilities: Record<string, unknown>;
    };
    const capabilities = client.getServerCapabilities();
    expect(capabilities).toMatchObject({ resources: {}, prompts: {}, tools: {} });
    expect(card.capabilities).toEqual({
      tools: capabilities?.tools,
      resources: capabilities?.resources,
      prompts: capabilities?.prompts,
    });
  });

  it("lists every current doc, policy and agent skill under the https URL of its Markdown twin", async () => {
    const { resources } = await client.listResources();
    const { content } = running.t.services;
    const siteUrl = running.t.config.siteUrl;
    const expected = [
      ...content.docs.map((doc) => `${siteUrl}/docs/${doc.path}.md`),
      ...content.policies.map((policy) => `${siteUrl}/policies/${policy.slug}.md`),
      ...content.skills.map((skill) => `${siteUrl}/.well-known/agent-skills/${skill.slug}/SKILL.md`),
    ];
    expect(resources.map((resource) => resource.uri).sort()).toEqual(expected.sort());
    for (const resource of resources) {
      expect(resource.mimeType, resource.uri).toBe("text/markdown");
      expect(resource.name, resource.uri).toMatch(/^(docs|policies|skills)\//);
      expect(resource.title, resource.uri).toBeTruthy();
      expect(resource.description, resource.uri).toBeTruthy();
    }
    const quickstart = resources.find((resource) => resource.name === "docs/quickstart");
    const doc = content.docs.find((entry) => entry.path === "quickstart");
    expect(quickstart).toMatchObject({ title: doc?.data.title, description: doc?.data.description });
  });

  it("reads a doc, a policy and a skill as the same bytes the site serves at that URL", async () => {
    const { resources } = await client.listResources();
    const samples = ["docs/", "policies/", "skills/"].map((prefix) =>
      resources.find((resource) => resource.name.startsWith(prefix)),
    );
    for (const sample of samples) {
      if (!sample) throw new Error("a kind of resource is missing");
      const { contents } = await client.readResource({ uri: sample.uri });
      const twin = await markdownTwin(sample.uri);
      expect(contents).toEqual([{ uri: sample.uri, mimeType: "text/markdown", text: twin }]);
      expect(sample.size).toBe(Buffer.byteLength(twin));
    }
  });

  it("offers a URI template per kind (doc by path, policy and skill by slug) that expands to the listed URIs", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    const siteUrl = running.t.config.siteUrl;
    expect(resourceTemplates.map(({ name, uriTemplate, mimeType }) => ({ name, uriTemplate, mimeType }))).toEqual([
      { name: "docs", uriTemplate: `${siteUrl}/docs/{+path}.md`, mimeType: "text/markdown" },
      { name: "policies", uriTemplate: `${siteUrl}/policies/{slug}.md`, mimeType: "text/markdown" },
      { name: "skills", uriTemplate: `${siteUrl}/.well-known/agent-skills/{slug}/SKILL.md`, mimeType: "text/markdown" },
    ]);
    const templates = resourceTemplates.map((template) => ({
      name: template.name,
      uri: new UriTemplate(template.uriTemplate),
    }));
    const { resources } = await client.listResources();
    for (const resource of resources) {
      // The kind's template, filled in with what the resource's name says, gives back its URI.
      const [kind, ...rest] = resource.name.split("/");
      const template = templates.find((candidate) => candidate.name === kind);
      const value = rest.join("/");
      expect(template?.uri.expand(kind === "docs" ? { path: value } : { slug: value }), resource.name).toBe(
        resource.uri,
      );
    }
    const filledIn = templates.find((template) => template.name === "docs")?.uri.expand({ path: "store/downloads" });
    const { contents } = await client.readResource({ uri: filledIn ?? "" });
    expect(contents).toEqual([{ uri: filledIn, mimeType: "text/markdown", text: await markdownTwin(filledIn ?? "") }]);
  });

  it("refuses an unknown resource URI with an Invalid Params error naming the URI", async () => {
    const uri = `${running.t.config.siteUrl}/docs/no-such-page.md`;
    const error = await client.readResource({ uri }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams, data: { uri } });
    expect((error as McpError).message).toContain(uri);
  });
});

describe("MCP prompts", () => {
  it("lists the flows with typed arguments, the required ones marked", async () => {
    const { prompts } = await client.listPrompts();
    // No payment provider is configured here, so buying is not offered.
    expect(prompts.map((prompt) => prompt.name).sort()).toEqual([
      "check_domain_readiness",
      "join_agent_waitlist_as_agent",
      "join_people_waitlist",
    ]);
    const check = prompts.find((prompt) => prompt.name === "check_domain_readiness");
    expect(check?.arguments).toEqual([
      { name: "domain", description: expect.any(String), required: true },
      { name: "credit_code", description: expect.any(String), required: false },
    ]);
  });

  it("fills a prompt's arguments into steps that name the tools to call, in order", async () => {
    const result = await client.getPrompt({
      name: "check_domain_readiness",
      arguments: { domain: "example.com", credit_code: "CODE-1234" },
    });
    const text = result.messages.map((message) => (message.content.type === "text" ? message.content.text : ""))[0];
    expect(text).toContain('"example.com"');
    expect(text).toContain('"CODE-1234"');
    const run = text?.indexOf("`run_readiness_check` (`domain`, optional `profile`, optional `render`)") ?? -1;
    const redeem = text?.indexOf(`POST ${running.t.config.siteUrl}/api/v1/checks/{id}/redeem`) ?? -1;
    const read = text?.indexOf("`read_readiness_report` (`id`)") ?? -1;
    expect(run).toBeGreaterThanOrEqual(0);
    expect(redeem).toBeGreaterThan(run);
    expect(read).toBeGreaterThan(redeem);
    // Then watching the site (issue 31): the report's own offer, through the tool that creates a monitor.
    const watch = text?.indexOf("follow the report's `watch`: call the tool `create_monitor` (`domain`") ?? -1;
    expect(watch).toBeGreaterThan(read);
    expect(text).toContain("with `watch.tool.arguments` (a token of the scope monitors:write)");
  });

  it("rejects a prompt request that lacks a required argument or breaks its type, naming the argument", async () => {
    const error = await client
      .getPrompt({ name: "join_people_waitlist", arguments: { name: "Ada" } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: ErrorCode.InvalidParams });
    expect((error as McpError).message).toMatch(/email is required/);
    const notAnAddress = await client
      .getPrompt({ name: "join_people_waitlist", arguments: { email: "not-an-address" } })
      .catch((caught: unknown) => caught);
    expect(notAnAddress).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/email/) });
  });

  it("names only tools that tools/list offers, with the arguments their input schemas take", async () => {
    const { tools } = await client.listTools();
    const { prompts } = await client.listPrompts();
    const arguments_: Record<string, Record<string, string>> = {
      check_domain_readiness: { domain: "example.com" },
      join_agent_waitlist_as_agent: { agent_name: "Tester", answer_survey: "yes" },
      join_people_waitlist: { email: "ada@example.com" },
    };
    for (const prompt of prompts) {
      const { messages } = await client.getPrompt({ name: prompt.name, arguments: arguments_[prompt.name] ?? {} });
      const text = messages.map((message) => (message.content.type === "text" ? message.content.text : "")).join();
      const named = [...text.matchAll(/call the tool `([a-z_]+)` \(([^)]*)\)/gi)];
      expect(named.length, prompt.name).toBeGreaterThan(0);
      for (const [, name, fields] of named) {
        const tool = tools.find((candidate) => candidate.name === name);
        expect(tool, `${prompt.name} names ${name}`).toBeDefined();
        for (const [, field] of (fields ?? "").matchAll(/`([a-z_]+)`/g))
          expect(Object.keys(tool?.inputSchema.properties ?? {}), `${name}.${field}`).toContain(field);
      }
    }
  });
});

describe("the buying prompt", () => {
  it("is offered once a payment provider is configured, and walks from the catalogue to the download", async () => {
    const store = await createStoreApp();
    const shop = await listen(store.t);
    const shopper = await connect(shop.base);
    try {
      const { prompts } = await shopper.listPrompts();
      expect(prompts.map((prompt) => prompt.name)).toContain("buy_store_item");
      const { messages } = await shopper.getPrompt({ name: "buy_store_item", arguments: { email: "ada@example.com" } });
      const text = messages[0]?.content.type === "text" ? messages[0].content.text : "";
      const siteUrl = store.t.config.siteUrl;
      const steps = [
        "Call the tool `list_products` (optional `category`)",
        `POST ${siteUrl}/api/v1/store/{id}/checkout\` with a JSON body of optional \`email\`, optional \`quantity\``,
        `GET ${siteUrl}/api/v1/store/sessions/{session_id}`,
        `GET ${siteUrl}/api/v1/store/sessions/{session_id}/download`,
      ].map((step) => text.indexOf(step));
      expect(
        steps.every((at) => at >= 0),
        text,
      ).toBe(true);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
      expect(text).toContain('"ada@example.com"');
    } finally {
      await shopper.close();
      await new Promise((resolve) => shop.server.close(resolve));
      await store.close();
    }
  });
});

describe("MCP rate limits", () => {
  it("counts every resources and prompts request against the mcp limit", async () => {
    const limited = await serve({ RATE_LIMITS: "mcp=4/60" });
    const limitedClient = await connect(limited.base);
    try {
      // initialize and notifications/initialized were the first two requests.
      await limitedClient.listResources();
      await limitedClient.listPrompts();
      await expect(limitedClient.listResources()).rejects.toThrow(/429/);
      await expect(limitedClient.listPrompts()).rejects.toThrow(/429/);
    } finally {
      await limitedClient.close();
      await stop(limited);
    }
  });
});
