import { createHash } from "node:crypto";
import type { H3 } from "h3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ON_DEMAND_PAGES } from "../../../api/site/page-routes.ts";
import { getContent } from "../../../src/content/load-content.ts";
import { allArtifacts } from "../../../src/lib/outputs/all-artifacts.ts";
import { OPERATIONS } from "../../../src/lib/registry.ts";
import { createTestApp, type TestApp } from "../../helpers/app.ts";
import { siteUrl } from "../../helpers/site.ts";

let app: H3;
let testApp: TestApp;
beforeAll(async () => {
  testApp = await createTestApp();
  app = testApp.app;
});
afterAll(() => testApp.close());
const get = (path: string, headers: Record<string, string> = {}) => Promise.resolve(app.request(path, { headers }));
const local = (href: string) => {
  const url = new URL(href, siteUrl());
  expect(url.origin, href).toBe(siteUrl());
  return url.pathname;
};

describe("discovery files", () => {
  it("serves the api-catalog as an RFC 9727 linkset whose every link resolves with the declared type", async () => {
    const response = await get("/.well-known/api-catalog");
    expect(response.headers.get("content-type")).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    );
    const catalog = (await response.json()) as { linkset: Record<string, unknown>[] };
    expect(catalog.linkset.length).toBeGreaterThan(0);
    let checked = 0;
    for (const context of catalog.linkset) {
      expect(String(context.anchor)).toMatch(/^https?:\/\//);
      expect((await get(local(String(context.anchor)))).status, String(context.anchor)).toBe(200);
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === "anchor") continue;
        for (const target of targets as { href: string; type?: string }[]) {
          const served = await get(local(target.href));
          expect(served.status, target.href).toBe(200);
          if (target.type) expect(served.headers.get("content-type")?.split(";")[0], target.href).toBe(target.type);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it("carries in agents.json the request schema of every write it lists, each one published", async () => {
    const agents = (await (await get("/agents.json")).json()) as {
      endpoints: { operation: string; method: string; request_schema: string | null }[];
    };
    const writes = agents.endpoints.filter((endpoint) => endpoint.method === "POST");
    expect(writes.map((endpoint) => endpoint.operation)).toContain("joinAgentWaitlist");
    for (const endpoint of agents.endpoints) {
      const registered = OPERATIONS.find((operation) => operation.id === endpoint.operation);
      expect(endpoint.request_schema, endpoint.operation).toBe(
        registered?.requestSchema ? `${siteUrl()}/schemas/${registered.requestSchema}.json` : null,
      );
    }
    for (const write of writes) {
      expect(write.request_schema, write.operation).not.toBeNull();
      const schema = await get(local(write.request_schema ?? ""));
      expect([write.operation, schema.status, schema.headers.get("content-type")]).toEqual([
        write.operation,
        200,
        "application/schema+json",
      ]);
    }
  });

  it("gives the docs' examples, llms-full.txt and the skills the built site URL, never another address", async () => {
    const placeholders = (text: string) => text.match(/\{\{(SITE|DOCS)_URL\}\}/g)?.length ?? 0;
    const escaped = (text: string) => text.match(/\\\{\{(SITE|DOCS)_URL\}\}/g)?.length ?? 0;
    const shownOnPurpose = getContent(process.cwd()).docs.reduce((sum, doc) => sum + escaped(doc.body), 0);
    expect(shownOnPurpose).toBeGreaterThan(0);
    const full = await (await get("/llms-full.txt")).text();
    const quickstart = (await (await get("/api/v1/docs/quickstart")).json()) as { body: string };
    const skill = await (await get("/.well-known/agent-skills/run-readiness-check/SKILL.md")).text();
    const page = await (await get("/docs/reference/errors")).text();
    for (const [where, text] of [
      ["llms-full.txt", full],
      ["quickstart", quickstart.body],
      ["skill", skill],
      ["errors page", page],
    ] as const) {
      // No placeholder is left unfilled: the only ones left are those the publishing guide shows on purpose.
      expect(placeholders(text), where).toBe(where === "llms-full.txt" ? shownOnPurpose : 0);
      const addresses = [
        ...text.matchAll(/export BASE=([^\s`{]+)/g),
        ...text.matchAll(/"type": "([^"]+)\/problems\//g),
        ...text.matchAll(/&quot;type&quot;: &quot;(.+?)\/problems\//g),
        ...text.matchAll(/address, here `([^`]+)`/g),
      ].map((match) => match[1]);
      expect(addresses.length, where).toBeGreaterThan(0);
      expect(new Set(addresses), where).toEqual(new Set([siteUrl()]));
    }
  });

  it("publishes llms.txt per llmstxt.org, and every link in it resolves", async () => {
    const text = await (await get("/llms.txt")).text();
    expect(text).toMatch(/^# \S.*\n\n> \S/);
    expect(text).toContain("\n## ");
    const links = [...text.matchAll(/\]\((https?:[^)]+)\)/g)].map((match) => match[1] ?? "");
    expect(links.length).toBeGreaterThanOrEqual(20);
    for (const link of links) expect((await get(local(link))).status, link).toBe(200);
    const full = await (await get("/llms-full.txt")).text();
    expect(full.length).toBeGreaterThan(text.length);
  });

  it("links Markdown everywhere in llms.txt but where a link's name says JSON or plain text, as it promises", async () => {
    const text = await (await get("/llms.txt")).text();
    expect(text).toContain("Every link below leads to Markdown, except those whose name says JSON or plain text.");
    const links = [...text.matchAll(/^- \[([^\]]+)\]\((https?:[^)]+)\)/gm)].map(([, name = "", url = ""]) => ({
      name,
      url,
    }));
    const served = await Promise.all(
      links.map(async ({ name, url }) => {
        const type = (await get(local(url))).headers.get("content-type") ?? "";
        const said = /\(JSON\)$/.test(name) ? "json" : /\(plain text\)$/.test(name) ? "text" : "markdown";
        const is = /^application\/([a-z.+-]*\+)?json\b/.test(type)
          ? "json"
          : type.startsWith("text/markdown")
            ? "markdown"
            : type.startsWith("text/plain")
              ? "text"
              : type;
        return { name, url, said, is };
      }),
    );
    expect(served.filter((link) => link.said !== link.is)).toEqual([]);
    // Pages with a Markdown twin (the articles among them) are linked as Markdown, never as their JSON.
    expect(served.filter((link) => link.said === "markdown").length).toBeGreaterThan(30);
    expect(served.filter((link) => new URL(link.url).pathname.startsWith("/api/v1/articles/"))).toEqual([]);
    for (const article of testApp.services.content.articles)
      expect(links.map((link) => link.url)).toContain(`${siteUrl()}/articles/${article.slug}.md`);
  });

  it("serves every agent skill with the digest the index declares", async () => {
    const index = (await (await get("/.well-known/agent-skills/index.json")).json()) as {
      $schema: string;
      skills: { name: string; type: string; url: string; digest: string; description: string }[];
    };
    expect(index.$schema).toBe("https://schemas.agentskills.io/discovery/0.2.0/schema.json");
    expect(index.skills.length).toBeGreaterThanOrEqual(2);
    for (const skill of index.skills) {
      const response = await get(new URL(skill.url, `${siteUrl()}/.well-known/agent-skills/index.json`).pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`, skill.name).toBe(skill.digest);
      expect(new TextDecoder().decode(bytes)).toContain(`name: ${skill.name}`);
    }
    expect((await get("/.well-known/agent-skills/no-such-skill/SKILL.md")).status).toBe(404);
  });

  it("lists capabilities with id, endpoint, method and authentication", async () => {
    const { capabilities } = (await (await get("/capabilities.json")).json()) as {
      capabilities: {
        id: string;
        endpoint: string;
        method: string;
        authentication: { type: string; scope?: string | null };
      }[];
    };
    const waitlist = capabilities.find((capability) => capability.id === "agents.waitlist");
    expect(waitlist).toMatchObject({
      method: "POST",
      endpoint: `${siteUrl()}/api/v1/agents/waitlist`,
      authentication: { type: "bearer", scope: "waitlist:write" },
    });
    expect(capabilities.find((capability) => capability.id === "docs.list")?.authentication).toEqual({ type: "none" });
  });

  it("has robots rules for agents with content signals and the sitemap, and a sitemap with lastmod", async () => {
    const robots = await (await get("/robots.txt")).text();
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toMatch(/^Content-Signal: search=yes, ai-input=yes, ai-train=yes$/m);
    expect(robots).toContain(`Sitemap: ${siteUrl()}/sitemap.xml`);
    expect(robots).not.toMatch(/^Disallow: \/\.well-known/m);
    const sitemap = await (await get("/sitemap.xml")).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc><lastmod>(\d{4}-\d{2}-\d{2})<\/lastmod>/g)];
    expect(locations.length).toBeGreaterThan(20);
    // Pages rendered on demand need the Node server; test/e2e/serve.test.ts requests those.
    const onDemand = new Set(ON_DEMAND_PAGES.map((page) => page.path));
    for (const [, loc] of locations)
      if (!onDemand.has(local(loc ?? ""))) expect((await get(local(loc ?? ""))).status, loc).toBe(200);
  });

  it("publishes security.txt with a contact and one Expires less than a year ahead", async () => {
    const text = await (await get("/.well-known/security.txt")).text();
    expect(text).toMatch(/^Contact: mailto:\S+@\S+$/m);
    const expires = [...text.matchAll(/^Expires: (.+)$/gm)];
    expect(expires).toHaveLength(1);
    const days = (Date.parse(expires[0]?.[1] ?? "") - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(30);
    expect(days).toBeLessThan(366);
    expect(text).toContain(`Canonical: ${siteUrl()}/.well-known/security.txt`);
  });

  it("gives every published schema an absolute $id equal to its URL", async () => {
    const catalog = (await (await get("/.well-known/api-catalog")).json()) as {
      linkset: { describedby?: { href: string }[] }[];
    };
    const schemas = catalog.linkset.flatMap((context) => context.describedby ?? []);
    expect(schemas.map((schema) => schema.href)).toEqual(
      expect.arrayContaining([
        `${siteUrl()}/schemas/agent-waitlist-entry.json`,
        `${siteUrl()}/schemas/check-input.json`,
        `${siteUrl()}/schemas/waitlist.json`,
      ]),
    );
    for (const { href } of schemas) {
      const schema = (await (await get(local(href))).json()) as { $id: string; $schema: string };
      expect(schema.$id).toBe(href);
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    }
  });
});

describe("what the build publishes depends on service settings", () => {
  const content = getContent(process.cwd());
  const urlsFor = (publish: Partial<typeof content.service.publish>) =>
    allArtifacts({
      content: { ...content, service: { ...content.service, publish: { ...content.service.publish, ...publish } } },
      siteUrl: "https://x.example",
      docsUrl: "https://x.example",
      builtAt: "2026-11-22T00:00:00.000Z",
    }).map((artifact) => artifact.url);

  it("publishes no skills index or SKILL.md when agent skills are off", () => {
    expect(urlsFor({ agent_skills: true })).toContain("/.well-known/agent-skills/index.json");
    const off = urlsFor({ agent_skills: false });
    expect(off.filter((url) => url.startsWith("/.well-known/agent-skills/"))).toEqual([]);
  });

  it("publishes no resources list when resources are off, so it answers 404", () => {
    expect(urlsFor({ resources: true })).toContain("/api/v1/resources");
    expect(urlsFor({ resources: false })).not.toContain("/api/v1/resources");
  });
});
