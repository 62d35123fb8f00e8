import type { ProxyRefusal } from "./guard/guard-proxy.ts";

/** A WebMCP tool as Chromium reported it (CDP `WebMCP.toolsAdded`): registered in script, or made from a form. */
export interface RenderedTool {
  name: string;
  description: string;
  /** Made from a `<form toolname>` (the event names its node); otherwise registered in script. */
  declarative: boolean;
  /** Where an imperative tool was registered: the script's URL, when the event's stack names one. */
  source: string | null;
}

/** A schema problem Chromium found in a declarative tool (CDP `Audits.issueAdded`), as Lighthouse reads it. */
export interface RenderedToolIssue {
  errorType: string;
  /** The element it is about, e.g. `input name=email`. */
  element: string;
}

/** An axe-core violation of one of the agent-accessibility-tree rules (agent-tree.ts). */
export interface AgentTreeViolation {
  id: string;
  help: string;
  nodes: number;
  /** The first offending element's selector. */
  target: string;
}

export type RenderedRole = "home" | "probe" | "deep";

/** One page as Chromium rendered it through the guard proxy. */
export interface RenderedPage {
  role: RenderedRole;
  url: string;
  /** Where the page ended up (redirects, script navigation). */
  finalUrl: string;
  /** The main document's status; null when none arrived. */
  status: number | null;
  /**
   * The document as the server sent it to the browser (capped): what an agent that runs no JavaScript reads. Compared
   * with `html`, it isolates what scripts add from what the server sends (the User-Agent parity is http.bot-ua-parity's).
   */
  serverHtml: string;
  /** The DOM after scripts ran and the page settled, serialised (capped). */
  html: string;
  durationMs: number;
  /** Cumulative layout shift: the largest session window of unexpected shifts; null when it could not be read. */
  layoutShift: number | null;
  /** Whether this Chromium speaks CDP `WebMCP` (Lighthouse's webmcp-* audits are n/a without it). */
  webMcpSupported: boolean;
  tools: RenderedTool[];
  toolIssues: RenderedToolIssue[];
  /** Forms without `toolname` and `tooldescription` after rendering (Lighthouse's webmcp-form-coverage). */
  unannotatedForms: number;
  /** The agent-accessibility-tree rules' violations; null when not run on this page. */
  agentTree: AgentTreeViolation[] | null;
  /** Requests of this page the guard proxy refused (a private address, a port, a browser service, the budget). */
  refused: ProxyRefusal[];
  /** Why the page did not load completely (a navigation error or the time limit); null when it did. */
  error: string | null;
}

export interface RenderSpending {
  requests: number;
  connections: number;
  bytes: number;
  hosts: number;
  durationMs: number;
  refused: number;
}

export interface RenderedSite {
  status: "rendered";
  /** The User-Agent the browser sent. */
  userAgent: string;
  pages: RenderedPage[];
  spending: RenderSpending;
}

/**
 * - unavailable: no browser here (the static report stands, the rendered checks are n/a)
 * - failed: the browser could not render this scan's pages (a crash, a busy renderer, the time limit before anything
 *   loaded): the scanner's trouble, so the rendered checks are `error`
 */
export interface RenderNotDone {
  status: "unavailable" | "failed";
  note: string;
}

export type RenderOutcome = RenderedSite | RenderNotDone;

export function pageOf(site: RenderedSite, role: RenderedRole): RenderedPage | undefined {
  return site.pages.find((page) => page.role === role);
}
