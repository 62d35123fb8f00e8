import {
  type CheckContext,
  defineCheck,
  isSecureOrLocal,
  judge,
  listProblems,
  notApplicable,
  pass,
} from "../../check-types.ts";
import { type DeclarativeTool, readWebMcp, type WebMcpReading } from "../../documents/webmcp.ts";
import { describeForm, type FormControl } from "../../parse/html-structure.ts";

const WEBMCP_SPEC = "https://webmachinelearning.github.io/webmcp/";
const DECLARATIVE_EXPLAINER = "https://github.com/webmachinelearning/webmcp/blob/main/declarative-api-explainer.md";
const LIGHTHOUSE_AGENTIC = "https://developer.chrome.com/docs/lighthouse/agentic-browsing/scoring";
/** WebMCP §tool definition: "length must be between 1 and 128 … ASCII alphanumeric, _, - and ." */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const WEBMCP_PROFILES = ["api", "agent", "commerce"] as const;

function toolCount(reading: WebMcpReading): number {
  return reading.declarative.length + reading.imperative.length;
}

function inspected(reading: WebMcpReading): string {
  const scripts = reading.scriptsRead === 0 ? "" : ` and ${reading.scriptsRead} same-origin script(s)`;
  const unread = reading.scriptsSkipped === 0 ? "" : `; ${reading.scriptsSkipped} script(s) not read`;
  return `static inspection of the homepage's HTML${scripts}${unread}`;
}

export const webMcpTools = defineCheck({
  id: "webmcp.tools",
  samples: true,
  title: "WebMCP tools are declared in the page (forms or navigator.modelContext)",
  category: "capabilities",
  severity: "info",
  maturity: "draft",
  profiles: WEBMCP_PROFILES,
  remediation:
    "Optional: let browser agents use the site's functions as tools, declaratively with toolname and tooldescription on a <form>, or imperatively with document.modelContext.registerTool().",
  prompt:
    'Expose our main forms as WebMCP tools: add toolname="<verb_noun>" and tooldescription="<what it does and when to use it>" to each <form>, toolparamdescription to each field, or register tools in script with document.modelContext.registerTool({name, description, inputSchema, execute}).',
  specUrls: [WEBMCP_SPEC, DECLARATIVE_EXPLAINER, LIGHTHOUSE_AGENTIC],
  requests: "the homepage, and at most 3 of its same-origin scripts",
  passes:
    "a `<form toolname tooldescription>` or a `modelContext.registerTool()` / `provideContext()` call is found (forms without annotations are listed, as Lighthouse does); none is `n/a` (WebMCP is optional)",
  async run(context) {
    const reading = await readWebMcp(context);
    const unannotated = reading.forms
      .map((form, position) => ({ form, position }))
      .filter(({ form }) => form.attributes.toolname === undefined && form.attributes.tooldescription === undefined)
      .map(({ form, position }) => describeForm(form, position));
    if (toolCount(reading) === 0) {
      const forms = reading.forms.length === 0 ? "no forms" : `${reading.forms.length} form(s), none annotated`;
      return notApplicable(`no WebMCP tools (${inspected(reading)}; ${forms}); WebMCP is optional`);
    }
    const names = [
      ...reading.declarative.map((tool) => `declarative ${tool.label}`),
      ...reading.imperative.map(
        (tool) => `${tool.api}${tool.name === null ? "" : ` "${tool.name}"`} in ${tool.source}`,
      ),
    ];
    const coverage =
      unannotated.length === 0 ? "" : `; forms without tool annotations (informative): ${listProblems(unannotated)}`;
    return pass(`${toolCount(reading)} WebMCP tool(s): ${listProblems(names)}${coverage}`);
  },
});

/** A field is described when an agent gets a title or description for the parameter it becomes. */
function isDescribed(control: FormControl): boolean {
  const { attributes } = control;
  return (
    control.labelled ||
    ["toolparamdescription", "toolparamtitle", "aria-label", "aria-labelledby", "title"].some(
      (name) => (attributes[name] ?? "").trim() !== "",
    )
  );
}

/** Words that make a form move money or destroy something, in its tool name, description or action. */
const PAYMENT_WORDS = /\b(pay|payment|checkout|purchase|buy|order|donate|subscribe|transfer)\b/i;
const DESTRUCTIVE_WORDS =
  /\b(delete|remove|destroy|erase|cancel|unsubscribe|revoke|deactivate|terminate|close account)\b/i;
const PAYMENT_FIELD = /^cc-|card|cvc|cvv|iban|payment/i;

/**
 * Why submitting this form unreviewed could hurt the user: it pays (card fields, or says so) or destroys something.
 * `toolautosubmit` lets the agent submit without the user checking the form (declarative API explainer).
 */
export function autosubmitRisk(tool: DeclarativeTool): "payment" | "destructive" | null {
  const words = [tool.name, tool.description, tool.form.attributes.action]
    .filter(Boolean)
    .join(" ")
    .replace(/[_-]/g, " ");
  const cardField = tool.form.controls.some((control) =>
    [control.attributes.autocomplete, control.attributes.name, control.attributes.id].some((value) =>
      PAYMENT_FIELD.test(value ?? ""),
    ),
  );
  if (cardField || PAYMENT_WORDS.test(words)) return "payment";
  return DESTRUCTIVE_WORDS.test(words) ? "destructive" : null;
}

interface Findings {
  problems: string[];
  cautions: string[];
}

// Lighthouse's webmcp-schema-validity grades these as the browser reports them: a missing form name, form
// description or required field name is an error; an unnamed optional field or an undescribed field is a warning.
function judgeDeclarative(reading: WebMcpReading, findings: Findings): void {
  for (const tool of reading.declarative) {
    if ((tool.name ?? "").trim() === "")
      findings.problems.push(`${tool.label} has tooldescription but no toolname (the tool has no name)`);
    else if ((tool.description ?? "").trim() === "")
      findings.problems.push(`${tool.label} has toolname but no tooldescription (agents cannot tell what it does)`);
    else if (!TOOL_NAME.test(tool.name ?? ""))
      findings.cautions.push(
        `${tool.label}: a tool name must be 1-128 ASCII letters, digits, "_", "-" or "." (WebMCP tool definition)`,
      );
    const risk = "toolautosubmit" in tool.form.attributes ? autosubmitRisk(tool) : null;
    if (risk !== null)
      findings.cautions.push(
        `${tool.label} has toolautosubmit on a ${risk} form, so an agent submits it without the user checking it`,
      );
    tool.form.controls.forEach((control, index) => {
      const field = `${tool.label} field ${index + 1} (${control.type})`;
      const named = (control.attributes.name ?? "").trim() !== "";
      if (!named && "required" in control.attributes)
        findings.problems.push(`${field} is required but has no name, so it cannot become a parameter`);
      else if (!named) findings.cautions.push(`${field} has no name, so agents cannot fill it`);
      else if (!isDescribed(control))
        findings.cautions.push(`${tool.label} field "${control.attributes.name}" has no label or toolparamdescription`);
    });
  }
}

function judgeImperative(reading: WebMcpReading, findings: Findings): void {
  for (const tool of reading.imperative) {
    if (tool.name !== null && !TOOL_NAME.test(tool.name))
      findings.problems.push(
        `registerTool "${tool.name}" in ${tool.source}: registerTool() rejects a name that is not 1-128 ASCII letters, digits, "_", "-" or "."`,
      );
    if (tool.description !== null && tool.description.trim() === "")
      findings.problems.push(
        `registerTool "${tool.name ?? "?"}" in ${tool.source}: registerTool() rejects an empty description`,
      );
  }
}

function judgeNames(reading: WebMcpReading, findings: Findings): void {
  const names = [
    ...reading.declarative.flatMap((tool) => (tool.name === null ? [] : [tool.name])),
    ...reading.imperative.flatMap((tool) => (tool.name === null ? [] : [tool.name])),
  ];
  const repeated = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (repeated.length > 0)
    findings.problems.push(`tool name(s) declared twice: ${repeated.join(", ")} (registerTool() rejects a duplicate)`);
}

function judgeContext(context: CheckContext, reading: WebMcpReading, findings: Findings): void {
  if (!isSecureOrLocal(context, new URL(reading.pageUrl)))
    findings.problems.push("the page is not served over HTTPS, and WebMCP exists only in secure contexts");
}

export const webMcpValid = defineCheck({
  id: "webmcp.valid",
  samples: true,
  title: "Declared WebMCP tools are complete and valid",
  category: "capabilities",
  severity: "low",
  maturity: "draft",
  profiles: WEBMCP_PROFILES,
  remediation:
    "Give every annotated form both toolname and tooldescription, a name and a label or toolparamdescription on every field; keep tool names to 1-128 letters, digits, _ - . and unique; leave toolautosubmit off forms that pay or delete; serve the page over HTTPS.",
  prompt:
    "Fix our WebMCP declarations: every <form toolname> also needs tooldescription, every field inside it a name attribute and a <label> or toolparamdescription; tool names must match /^[A-Za-z0-9_.-]{1,128}$/ and be unique across forms and registerTool() calls.",
  specUrls: [WEBMCP_SPEC, DECLARATIVE_EXPLAINER, LIGHTHOUSE_AGENTIC],
  requests: "nothing beyond `webmcp.tools`",
  passes:
    "annotated forms have both `toolname` and `tooldescription` and name their required fields; `registerTool` names are 1-128 of `A-Za-z0-9_.-`, unique and described; the page is HTTPS (else `fail`, as Lighthouse's errors); unnamed optional or undescribed fields, and `toolautosubmit` on a payment or destructive form, `warn`",
  async run(context) {
    const reading = await readWebMcp(context);
    if (toolCount(reading) === 0) return notApplicable("no WebMCP tools declared, so there is nothing to validate");
    const findings: Findings = { problems: [], cautions: [] };
    judgeContext(context, reading, findings);
    judgeDeclarative(reading, findings);
    judgeImperative(reading, findings);
    judgeNames(reading, findings);
    const unseen =
      reading.imperative.length > 0 ? "; input schemas of script-registered tools need a browser to check" : "";
    return judge(
      findings,
      `${toolCount(reading)} tool(s) with names and descriptions; every form field named and described${unseen}`,
    );
  },
});

export const webMcpChecks = [webMcpTools, webMcpValid];
