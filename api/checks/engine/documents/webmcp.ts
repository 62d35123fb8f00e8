import { ScanFetchError } from "../fetch/scan-fetch-error.ts";
import { describeForm, type HtmlForm, htmlForms, pageScripts } from "../parse/html-structure.ts";
import { bodyLooksLikeHtml, isSuccess } from "../parse/media-type.ts";
import type { DocumentContext } from "./document.ts";
import { loadHome } from "./site.ts";

/** A `<form toolname tooldescription>` (WebMCP declarative API explainer). */
export interface DeclarativeTool {
  form: HtmlForm;
  label: string;
  name: string | null;
  description: string | null;
}

/** A `modelContext.registerTool()` / `provideContext()` call found in the page's script source. */
export interface ImperativeTool {
  api: "registerTool" | "provideContext";
  /** The literal `name:` of the registered tool, when the call spells it out. */
  name: string | null;
  description: string | null;
  source: string;
}

export interface WebMcpReading {
  pageUrl: string;
  forms: HtmlForm[];
  declarative: DeclarativeTool[];
  imperative: ImperativeTool[];
  scriptsRead: number;
  /** Scripts not inspected: other origins (a scan only reads the target), past the cap, or unanswered. */
  scriptsSkipped: number;
}

/** Same-origin scripts read per scan: enough for a site's own bundle, bounded for the request budget. */
const MAX_SCRIPTS = 3;
const ACCEPT_SCRIPT = "text/javascript, application/javascript;q=0.9, */*;q=0.1";
// `navigator.modelContext` (early drafts, Chrome's origin trial) and `document.modelContext` (the current draft).
const CALL_PATTERN = /\bmodelContext\s*\??\.\s*(registerTool|provideContext)\s*\(/g;
const NAME_PATTERN = /\bname\s*:\s*(["'`])([^"'`\n]{0,200})\1/;
const DESCRIPTION_PATTERN = /\bdescription\s*:\s*(["'`])([^"'`\n]{0,2000})\1/;
/** How far after a call its tool's literal name and description are looked for. */
const CALL_WINDOW = 1_500;

/** Static inspection: the calls that register tools, with the literal name and description where they are given. */
export function imperativeTools(source: string, where: string): ImperativeTool[] {
  const tools: ImperativeTool[] = [];
  for (const match of source.matchAll(CALL_PATTERN)) {
    const after = source.slice(match.index + match[0].length, match.index + match[0].length + CALL_WINDOW);
    // The tool's own members come before its schema and its code; a `name:` after them belongs to a parameter.
    const ownMembers = after.split(/\b(?:inputSchema|execute)\b/)[0] ?? "";
    const api = match[1] === "provideContext" ? "provideContext" : "registerTool";
    tools.push({
      api,
      name: api === "registerTool" ? (NAME_PATTERN.exec(ownMembers)?.[2] ?? null) : null,
      description: api === "registerTool" ? (DESCRIPTION_PATTERN.exec(ownMembers)?.[2] ?? null) : null,
      source: where,
    });
  }
  return tools;
}

function declarativeTools(forms: readonly HtmlForm[]): DeclarativeTool[] {
  return forms.flatMap((form, position) =>
    form.attributes.toolname === undefined && form.attributes.tooldescription === undefined
      ? []
      : [
          {
            form,
            label: describeForm(form, position),
            name: form.attributes.toolname ?? null,
            description: form.attributes.tooldescription ?? null,
          },
        ],
  );
}

/**
 * The WebMCP tools the homepage declares, read without running it: annotated forms, and registration calls in its
 * inline scripts and first few same-origin scripts. A tool registered by code this cannot see (another origin, a
 * computed call) is missed; Cloudflare and Lighthouse load the page in a browser instead.
 */
export async function readWebMcp(context: DocumentContext): Promise<WebMcpReading> {
  const { response } = await loadHome(context);
  const forms = htmlForms(response.text);
  const scripts = pageScripts(response.text, response.url);
  const imperative = scripts.inline.flatMap((body) => imperativeTools(body, "an inline script"));
  const sameOrigin = scripts.external.filter((url) => new URL(url).origin === context.target.origin);
  const toRead = sameOrigin.slice(0, MAX_SCRIPTS);
  let scriptsRead = 0;
  const bodies = await Promise.all(
    toRead.map(async (url) => {
      try {
        const script = await context.trail.request({ url, headers: { accept: ACCEPT_SCRIPT }, sample: true });
        return isSuccess(script) && !bodyLooksLikeHtml(script.text) ? { url, text: script.text } : null;
      } catch (error) {
        if (error instanceof ScanFetchError) return null;
        throw error;
      }
    }),
  );
  for (const body of bodies) {
    if (body === null) continue;
    scriptsRead += 1;
    imperative.push(...imperativeTools(body.text, new URL(body.url).pathname));
  }
  return {
    pageUrl: response.url,
    forms,
    declarative: declarativeTools(forms),
    imperative,
    scriptsRead,
    scriptsSkipped: scripts.external.length - scriptsRead,
  };
}
