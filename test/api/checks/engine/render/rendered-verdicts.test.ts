import { describe, expect, it } from "vitest";
import type { CheckContext, CheckDefinition } from "../../../../../api/checks/engine/check-types.ts";
import { EvidenceTrail } from "../../../../../api/checks/engine/evidence.ts";
import { ScanFetcher } from "../../../../../api/checks/engine/fetch/fetcher.ts";
import type {
  RenderedPage,
  RenderedSite,
  RenderOutcome,
} from "../../../../../api/checks/engine/render/rendered-site.ts";
import { defineCheckerSettings } from "../../../../../api/checks/engine/settings.ts";
import { renderedAgentTree, renderedLayoutShift } from "../../../../../api/checks/engine/suite/rendered/browsing.ts";
import { renderedContent, renderedJsonLd } from "../../../../../api/checks/engine/suite/rendered/content.ts";
import { renderedSoft404 } from "../../../../../api/checks/engine/suite/rendered/soft404.ts";
import { renderedWebMcpSchemas, renderedWebMcpTools } from "../../../../../api/checks/engine/suite/rendered/webmcp.ts";

// The verdict rules of the rendered checks, on pages as the renderer reports them (its browser is the other tests').
const ORIGIN = "https://shop.example";

function page(role: RenderedPage["role"], overrides: Partial<RenderedPage> = {}): RenderedPage {
  const path = role === "home" ? "/" : role === "probe" ? "/__nonexistent-abc" : "/products/1";
  const html =
    "<html><head><title>Shop</title></head><body><main><h1>Shop</h1><p>Boots and packs.</p></main></body></html>";
  return {
    role,
    url: `${ORIGIN}${path}`,
    finalUrl: `${ORIGIN}${path}`,
    status: 200,
    serverHtml: html,
    html,
    durationMs: 900,
    layoutShift: 0,
    webMcpSupported: true,
    tools: [],
    toolIssues: [],
    unannotatedForms: 0,
    agentTree: role === "home" ? [] : null,
    refused: [],
    error: null,
    ...overrides,
  };
}

function site(...pages: RenderedPage[]): RenderedSite {
  const spending = { requests: 5, connections: 5, bytes: 1000, hosts: 1, durationMs: 2000, refused: 0 };
  return { status: "rendered", userAgent: "HeadlessChrome AgentReadyBot/1.0", pages, spending };
}

async function judge(check: CheckDefinition, rendering: RenderOutcome | null) {
  const settings = defineCheckerSettings({ siteUrl: "https://agent-ready.test" });
  const fetcher = new ScanFetcher({ settings });
  const context: CheckContext = {
    target: { input: ORIGIN, origin: ORIGIN, root: new URL(`${ORIGIN}/`), allowListed: false },
    trail: new EvidenceTrail(fetcher, settings.userAgent, ORIGIN),
    fallbacks: new Set(),
    now: new Date(),
    scanToken: "abc",
    facts: {
      signals: {
        htmlHome: true,
        documentation: null,
        llmsTxt: false,
        llmsFull: false,
        markdownAlternate: false,
        openApi: false,
        apiCatalog: false,
        agentsJson: false,
        protectedResource: false,
        mcpCard: false,
        a2aCard: false,
        skillsIndex: false,
        aiCatalog: false,
        webBotAuth: false,
        pricing: false,
        commerceProtocol: false,
      },
      reasons: {},
      inferred: ["content"],
      applied: ["content"],
      overridden: false,
    },
    agentDns: async () => ({ records: [], authenticated: false }),
    rendering: rendering === null ? null : Promise.resolve(rendering),
  };
  try {
    return { ...(await check.run(context)), evidence: context.trail.entries };
  } finally {
    await fetcher.close();
  }
}

const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(" ");

describe("what the rendered checks conclude", () => {
  it("are n/a when no browser rendered, and error when the browser failed", async () => {
    const unavailable = await judge(renderedContent, { status: "unavailable", note: "not rendered: no Chromium" });
    expect(unavailable).toMatchObject({ status: "n/a", message: "not rendered: no Chromium" });
    expect((await judge(renderedContent, { status: "failed", note: "not rendered: it crashed" })).status).toBe("error");
    expect(
      (await judge(renderedContent, site(page("home", { status: null, html: "", error: "refused" })))).status,
    ).toBe("error");
  });

  it("passes small scripted additions, naming them, and warns from a fifth of the words", async () => {
    const small = page("home", { html: `<body><main><h1>Shop</h1><p>${words(100)}</p><p>© 2026</p></main></body>` });
    const serverSmall = `<body><main><h1>Shop</h1><p>${words(100)}</p></main></body>`;
    const passed = await judge(renderedContent, site({ ...small, serverHtml: serverSmall }));
    expect(passed).toMatchObject({ status: "pass" });
    expect(passed.message).toMatch(/small additions by script: 1 words on \//);
    const many = page("home", {
      serverHtml: `<body><main><h1>Shop</h1><p>${words(70)}</p></main></body>`,
      html: `<body><main><h1>Shop</h1><p>${words(100)}</p></main></body>`,
    });
    const warned = await judge(renderedContent, site(many));
    expect(warned.status).toBe("warn");
    expect(warned.message).toMatch(/on \/, 30 of 101 words \(30 %\)/);
    expect(warned.evidence.at(-1)?.finding).toMatch(/^rendered in Chromium in 0\.9 s: 101 words/);
  });

  it("warns on a title or description set by script, and on JSON-LD only a browser sees", async () => {
    const scripted = page("home", {
      serverHtml: "<head><title>Loading…</title></head><body><main><h1>Shop</h1></main></body>",
      html: '<head><title>Shop: boots</title><meta name="description" content="Boots."><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Boot"}</script></head><body><main><h1>Shop</h1></main></body>',
    });
    expect((await judge(renderedContent, site(scripted))).message).toMatch(
      /the title \("Shop: boots"\), the description/,
    );
    const jsonLd = await judge(renderedJsonLd, site(scripted));
    expect(jsonLd).toMatchObject({ status: "warn" });
    expect(jsonLd.message).toMatch(/JSON-LD added by JavaScript: 1 block\(s\) \(Product\) on \//);
    expect((await judge(renderedJsonLd, site(page("home")))).status).toBe("n/a");
  });

  it("tells a soft 404 only a browser sees from a real 404 and from one the HTML already shows", async () => {
    const only = page("probe", { html: "<title>Page not found</title><h1>Page not found</h1>" });
    expect((await judge(renderedSoft404, site(page("home"), only))).message).toMatch(/a soft 404 only a browser sees/);
    expect((await judge(renderedSoft404, site(page("home"), page("probe", { status: 404 })))).status).toBe("pass");
    const inHtml = page("probe", { serverHtml: only.html, html: only.html });
    expect((await judge(renderedSoft404, site(page("home"), inHtml))).message).toMatch(
      /charged once, to http\.soft404/,
    );
    const moved = page("probe", { finalUrl: `${ORIGIN}/`, html: `<main><p>${words(40)}</p></main>` });
    expect((await judge(renderedSoft404, site(page("home"), moved))).message).toMatch(
      /a browser shows a page of 40 words there \(the app moves it to \/\)/,
    );
  });

  it("lists WebMCP tools, warns past forty, and fails schema errors but only warns on undescribed fields", async () => {
    const tool = (name: string) => ({ name, description: "d", declarative: false, source: `${ORIGIN}/app.js` });
    const two = await judge(renderedWebMcpTools, site(page("home", { tools: [tool("search"), tool("cart")] })));
    expect(two).toMatchObject({ status: "pass" });
    expect(two.message).toMatch(/"search" \(registered by script in \/app\.js\)/);
    const many = Array.from({ length: 41 }, (_, index) => tool(`tool_${index}`));
    expect((await judge(renderedWebMcpTools, site(page("home", { tools: many })))).status).toBe("warn");
    expect((await judge(renderedWebMcpTools, site(page("home", { webMcpSupported: false })))).message).toMatch(
      /does not report WebMCP/,
    );
    const issues = (errorType: string) =>
      site(page("home", { tools: [tool("order")], toolIssues: [{ errorType, element: "input name=qty" }] }));
    expect(await judge(renderedWebMcpSchemas, issues("FormModelContextRequiredParameterMissingName"))).toMatchObject({
      status: "fail",
      message: "the browser reports WebMCP schema errors: input name=qty: a required field has no name on /",
    });
    expect(
      (await judge(renderedWebMcpSchemas, issues("FormModelContextParameterMissingTitleAndDescription"))).status,
    ).toBe("warn");
  });

  it("fails the agent-tree rules with the clause of each, errors when axe did not run, and warns past 0.1 of shift", async () => {
    const broken = page("home", {
      agentTree: [{ id: "button-name", help: "Buttons must have discernible text", nodes: 2, target: "#cart" }],
    });
    const tree = await judge(renderedAgentTree, site(broken));
    expect(tree).toMatchObject({ status: "fail" });
    expect(tree.message).toMatch(/button-name \(2 element\(s\), first #cart: Buttons must have discernible text\)/);
    expect(tree.clauses).toEqual([
      { keyword: "MUST", source: "axe-core button-name", problem: "Buttons must have discernible text" },
    ]);
    expect((await judge(renderedAgentTree, site(page("home", { agentTree: null })))).status).toBe("error");
    expect((await judge(renderedLayoutShift, site(page("home", { layoutShift: 0.1 })))).status).toBe("pass");
    expect((await judge(renderedLayoutShift, site(page("home", { layoutShift: 0.31 })))).message).toBe(
      "cumulative layout shift of / is 0.31 (good is at most 0.1)",
    );
  });
});
