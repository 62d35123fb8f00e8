import { defineCheck, fail, listProblems, notApplicable, pass, warn } from "../../check-types.ts";
import type { RenderedPage, RenderedSite, RenderedTool, RenderedToolIssue } from "../../render/rendered-site.ts";
import { isRenderedSite, pathOf, recordPage, renderedSite } from "./rendered-pages.ts";

const WEBMCP_SPEC = "https://webmachinelearning.github.io/webmcp/";
const LIGHTHOUSE_WEBMCP = "https://developer.chrome.com/docs/lighthouse/agentic-browsing/scoring";
/** Lighthouse's webmcp-registered-tools warns past this many: tools cost context tokens and invite confusion. */
const MAX_RECOMMENDED_TOOLS = 40;

/** The pages a browser agent would use: the homepage and the deep page (the probe is an error page). */
function toolPages(site: RenderedSite): RenderedPage[] {
  return site.pages.filter((page) => page.role !== "probe" && page.status !== null);
}

/** A tool's name and how it came to be: from a form, or by a script (named when it is a file of its own). */
function describeTool(tool: RenderedTool, pages: readonly RenderedPage[]): string {
  if (tool.declarative) return `"${tool.name}" (from a form)`;
  const source = tool.source;
  const inline = source === null || pages.some((page) => page.finalUrl === source || page.url === source);
  return `"${tool.name}" (registered by script${inline ? "" : ` in ${pathOf({ url: source })}`})`;
}

/** The tools of the pages, each name once (a tool registered again under its name is the same tool). */
function toolsOf(pages: readonly RenderedPage[]): Map<string, RenderedTool> {
  return new Map(pages.flatMap((page) => page.tools.map((tool) => [tool.name, tool] as const)));
}

export const renderedWebMcpTools = defineCheck({
  id: "render.webmcp",
  rendered: true,
  title: "WebMCP tools a browser agent finds on the rendered page",
  category: "capabilities",
  severity: "info",
  maturity: "draft",
  profiles: "all",
  requests: "the homepage and one page it links to, rendered in Chromium with WebMCP on",
  passes:
    "the tools Chromium reports (CDP `WebMCP.toolsAdded`): registered at runtime with `navigator.modelContext` or made from `<form toolname>`, as Lighthouse's webmcp-registered-tools lists them; `warn` past 40 tools; `n/a` without any (WebMCP is optional)",
  remediation:
    "Optional: register the site's main actions as WebMCP tools (navigator.modelContext.registerTool, or toolname and tooldescription on a form), a few well-described ones rather than many.",
  prompt:
    "Expose our main user actions to browser agents as WebMCP tools: navigator.modelContext.registerTool({name, description, inputSchema, execute}) for scripted actions, or toolname/tooldescription attributes on our forms. Keep the list short and each description specific.",
  specUrls: [WEBMCP_SPEC, LIGHTHOUSE_WEBMCP],
  async run(context) {
    const site = await renderedSite(context);
    if (!isRenderedSite(site)) return site;
    const pages = toolPages(site);
    if (pages.length === 0) return notApplicable("no page rendered to look for tools on");
    if (pages.every((page) => !page.webMcpSupported))
      return notApplicable("this Chromium does not report WebMCP tools (no CDP WebMCP domain)");
    for (const page of pages)
      recordPage(
        context,
        site,
        page,
        `${page.tools.length} WebMCP tool(s), ${page.unannotatedForms} form(s) without tool annotations`,
      );
    const tools = toolsOf(pages);
    const unannotated = pages.reduce((sum, page) => sum + page.unannotatedForms, 0);
    const forms = unannotated === 0 ? "" : `; ${unannotated} form(s) without tool annotations (informative)`;
    if (tools.size === 0) return notApplicable(`no WebMCP tools on the rendered pages${forms}; WebMCP is optional`);
    const listed = listProblems(
      [...tools.values()].map((tool) => describeTool(tool, pages)),
      5,
    );
    const runtime = [...tools.values()].filter((tool) => !tool.declarative).length;
    const scripted =
      runtime === 0 ? "" : `; ${runtime} registered at runtime, which only agents that run the page find`;
    if (tools.size > MAX_RECOMMENDED_TOOLS)
      return warn(
        `${tools.size} WebMCP tools (more than ${MAX_RECOMMENDED_TOOLS} cost agents context and invite confusion): ${listed}`,
      );
    return pass(`${tools.size} WebMCP tool(s) on ${pages.map(pathOf).join(" and ")}: ${listed}${scripted}${forms}`);
  },
});

// Lighthouse's webmcp-schema-validity: these make a tool unusable; the others only leave parameters unexplained.
const ERRORS: Readonly<Record<string, string>> = {
  FormModelContextMissingToolName: "the form has no toolname",
  FormModelContextMissingToolDescription: "the form has no tooldescription",
  FormModelContextRequiredParameterMissingName: "a required field has no name",
};
const WARNINGS: Readonly<Record<string, string>> = {
  FormModelContextParameterMissingTitleAndDescription: "a field has no title or description",
  FormModelContextParameterMissingName: "an optional field has no name",
};

function describeIssue(issue: RenderedToolIssue): string {
  return `${issue.element}: ${ERRORS[issue.errorType] ?? WARNINGS[issue.errorType] ?? issue.errorType}`;
}

export const renderedWebMcpSchemas = defineCheck({
  id: "render.webmcp-valid",
  rendered: true,
  title: "The browser finds no schema problems in the page's WebMCP tools",
  category: "capabilities",
  severity: "medium",
  maturity: "draft",
  profiles: "all",
  requests: "the homepage and one page it links to, rendered in Chromium with WebMCP on",
  passes:
    "Chromium reports no schema issue for the declarative tools (CDP `Audits.issueAdded`, as Lighthouse's webmcp-schema-validity reads them); a missing toolname, tooldescription or name of a required field fails, a field without a title or description warns; `n/a` without tools",
  remediation:
    "Give every WebMCP form a toolname and a tooldescription, a name to every field, and a title or description (toolparamdescription, a label) to every parameter.",
  prompt:
    "Fix the WebMCP schema problems Chrome reports on our forms: each <form> with WebMCP needs toolname and tooldescription, each field a name, and each parameter a description (toolparamdescription or a <label>).",
  specUrls: [
    WEBMCP_SPEC,
    "https://github.com/webmachinelearning/webmcp/blob/main/declarative-api-explainer.md",
    LIGHTHOUSE_WEBMCP,
  ],
  async run(context) {
    const site = await renderedSite(context);
    if (!isRenderedSite(site)) return site;
    const pages = toolPages(site);
    if (pages.every((page) => !page.webMcpSupported))
      return notApplicable("this Chromium does not report WebMCP schema issues (no CDP WebMCP domain)");
    const issues = pages.flatMap((page) => page.toolIssues.map((issue) => ({ page, issue })));
    const tools = toolsOf(pages).size;
    for (const page of pages) recordPage(context, site, page, `${page.toolIssues.length} WebMCP schema issue(s)`);
    if (tools === 0 && issues.length === 0) return notApplicable("no WebMCP tools on the rendered pages");
    const named = ({ page, issue }: (typeof issues)[number]) => `${describeIssue(issue)} on ${pathOf(page)}`;
    const errors = issues.filter(({ issue }) => ERRORS[issue.errorType] !== undefined).map(named);
    const warnings = issues.filter(({ issue }) => ERRORS[issue.errorType] === undefined).map(named);
    if (errors.length > 0) {
      const also = warnings.length === 0 ? "" : `; also ${listProblems(warnings, 2)}`;
      return fail(`the browser reports WebMCP schema errors: ${listProblems(errors)}${also}`);
    }
    if (warnings.length > 0) return warn(`the browser reports WebMCP schema warnings: ${listProblems(warnings)}`);
    return pass(`${tools} WebMCP tool(s), no schema problem reported by the browser`);
  },
});
