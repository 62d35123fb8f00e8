import type { Browser, Page } from "playwright-core";
import { SCHEMA_ISSUES } from "../../api/checks/engine/render/webmcp-events.ts";
import { launchBrowser } from "./browser.ts";

/**
 * Chromium with WebMCP turned on, as Lighthouse's smoke test runs it: the declarative API registers
 * annotated forms as tools, and DevTools reports them (CDP `WebMCP`) and their schema problems
 * (CDP `Audits`), which is where Lighthouse's `webmcp-*` audits read them.
 */
export function launchWebMcpBrowser(): Promise<Browser> {
  return launchBrowser(["--enable-features=WebMCPTesting,DevToolsWebMCPSupport"]);
}

export interface WebMcpTool {
  name: string;
  description: string;
  /** The JSON Schema the browser made from the form's fields. */
  inputSchema: unknown;
}

/** A schema problem the browser found in a declarative tool, as the `webmcp-schema-validity` audit reads it. */
export interface WebMcpIssue {
  errorType: string;
  /** The element it is about: its tag and name, e.g. `input name=consent_version`. */
  element: string;
}

export interface WebMcpReport {
  /** What Lighthouse's WebMCP gatherer tests first: without it, all three audits are not applicable. */
  supported: boolean;
  tools: WebMcpTool[];
  issues: WebMcpIssue[];
  /** Forms without both `toolname` and `tooldescription`: what `webmcp-form-coverage` lists. */
  unannotatedForms: string[];
}

/** Loads `url` and collects what Lighthouse's three `webmcp-*` audits are computed from. */
export async function webMcpReport(page: Page, url: string): Promise<WebMcpReport> {
  const cdp = await page.context().newCDPSession(page);
  const tools: WebMcpTool[] = [];
  const raw: { errorType: string; violatingNodeId?: number }[] = [];
  cdp.on("WebMCP.toolsAdded", (event) =>
    tools.push(...event.tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))),
  );
  cdp.on("Audits.issueAdded", (event) => {
    const details = event.issue.details.genericIssueDetails;
    if (details && SCHEMA_ISSUES.has(details.errorType)) raw.push(details);
  });
  await cdp.send("Audits.enable");
  await cdp.send("WebMCP.enable");
  await page.goto(url);
  // Tools and issues arrive as events; the page's forms are registered once it has loaded.
  await page.waitForLoadState("load");
  await page.waitForTimeout(300);
  const { supported, unannotatedForms } = await page.evaluate(() => ({
    supported: "modelContext" in navigator || "modelContext" in document,
    unannotatedForms: [...document.forms]
      .filter((form) => !form.getAttribute("toolname") || !form.getAttribute("tooldescription"))
      .map((form) => form.outerHTML.slice(0, 120)),
  }));
  const issues: WebMcpIssue[] = [];
  // The browser reports an issue each time it validates a form; the audit counts each node once.
  for (const key of new Set(raw.map((issue) => `${issue.violatingNodeId}\u0000${issue.errorType}`))) {
    const [nodeId = "", errorType = ""] = key.split("\u0000");
    let element = "unknown element";
    if (nodeId !== "undefined") {
      const { node } = await cdp.send("DOM.describeNode", { backendNodeId: Number(nodeId) });
      const attributes = node.attributes ?? [];
      const name = attributes[attributes.indexOf("name") + 1];
      element = `${node.localName}${attributes.includes("name") ? ` name=${name}` : ""}`;
    }
    issues.push({ errorType, element });
  }
  await cdp.detach();
  // As Lighthouse's gatherer does: a tool registered again under the same name counts once (the latest).
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return { supported, tools: [...byName.values()], issues, unannotatedForms };
}
