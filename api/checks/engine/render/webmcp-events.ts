import type { CDPSession } from "playwright-core";
import type { RenderedTool, RenderedToolIssue } from "./rendered-site.ts";

// The issue types Lighthouse's WebMcpSchemaIssues gatherer keeps (core/gather/gatherers/webmcp-schema.js).
export const SCHEMA_ISSUES: ReadonlySet<string> = new Set([
  "FormModelContextMissingToolName",
  "FormModelContextMissingToolDescription",
  "FormModelContextRequiredParameterMissingName",
  "FormModelContextParameterMissingTitleAndDescription",
  "FormModelContextParameterMissingName",
]);

const TOOLS_KEPT = 100;
const clip = (text: string, limit: number): string => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);

/**
 * Listens, before the page loads, to what Chromium reports about WebMCP: tools as they are registered or removed
 * (CDP `WebMCP.toolsAdded`/`toolsRemoved`, a runtime registration included) and the schema problems it finds in
 * declarative forms (`Audits.issueAdded`), as Lighthouse's webmcp gatherers do. Names and descriptions come from the
 * page: they are clipped here and quoted, never interpreted.
 */
export class WebMcpEvents {
  private readonly cdp: CDPSession;
  private readonly tools = new Map<string, RenderedTool>();
  private readonly issues: Array<{ errorType: string; node: number | undefined }> = [];
  supported = true;

  private constructor(cdp: CDPSession) {
    this.cdp = cdp;
    cdp.on("WebMCP.toolsAdded", (event) => {
      for (const tool of event.tools) {
        if (this.tools.size >= TOOLS_KEPT && !this.tools.has(tool.name)) continue;
        const frame = tool.stackTrace?.callFrames[0];
        // As Lighthouse's gatherer does, a tool registered again under the same name counts once (the latest).
        this.tools.set(tool.name, {
          name: clip(tool.name, 128),
          description: clip(tool.description, 300),
          declarative: typeof tool.backendNodeId === "number",
          source: frame?.url ? clip(frame.url, 300) : null,
        });
      }
    });
    cdp.on("WebMCP.toolsRemoved", (event) => {
      for (const tool of event.tools) this.tools.delete(tool.name);
    });
    cdp.on("Audits.issueAdded", (event) => {
      const details = event.issue.details.genericIssueDetails;
      if (details && SCHEMA_ISSUES.has(details.errorType) && this.issues.length < TOOLS_KEPT)
        this.issues.push({ errorType: details.errorType, node: details.violatingNodeId });
    });
  }

  static async attach(cdp: CDPSession): Promise<WebMcpEvents> {
    const events = new WebMcpEvents(cdp);
    await cdp.send("Audits.enable");
    // A Chromium without the WebMCP DevTools domain: Lighthouse's webmcp-* audits are then not applicable.
    await cdp.send("WebMCP.enable").catch(() => {
      events.supported = false;
    });
    return events;
  }

  registered(): RenderedTool[] {
    return [...this.tools.values()];
  }

  /** Each problem once per element, as the audit counts it, with the element it is about. */
  async schemaIssues(): Promise<RenderedToolIssue[]> {
    const unique = new Map(this.issues.map((issue) => [`${issue.node}\u0000${issue.errorType}`, issue]));
    const described: RenderedToolIssue[] = [];
    for (const { errorType, node } of unique.values())
      described.push({ errorType, element: node === undefined ? "an element" : await this.describe(node) });
    return described;
  }

  private async describe(backendNodeId: number): Promise<string> {
    try {
      const { node } = await this.cdp.send("DOM.describeNode", { backendNodeId });
      const attributes = node.attributes ?? [];
      const at = attributes.indexOf("name");
      const name = at === -1 || at % 2 === 1 ? "" : ` name=${clip(attributes[at + 1] ?? "", 60)}`;
      return `${node.localName}${name}`;
    } catch {
      return "an element";
    }
  }
}
