/**
 * The structure agents read from a page's markup: its heading outline, landmarks, images, forms and scripts. Like
 * html.ts, every pass is linear in the size of the page (tag patterns that stop at the next `<`, `indexOf` for closing
 * tags), because the markup comes from the site being checked.
 */
import {
  type Attributes,
  decodeEntities,
  parseAttributes,
  tagPattern,
  tags,
  withoutComments,
  withoutElements,
} from "./html.ts";

export interface HtmlElement {
  attributes: Attributes;
  /** The raw markup between the opening tag and the first closing tag of the same name. */
  content: string;
}

/** The markup a reader (or an agent's accessibility tree) sees: no comments, scripts, styles or templates. */
export function renderedMarkup(html: string): string {
  return withoutElements(withoutComments(html), ["script", "style", "template", "noscript"]);
}

/** Every `<name …>…</name>`; an element runs to the next closing tag of its name (these elements do not nest). */
export function elementsNamed(html: string, name: string): HtmlElement[] {
  const lower = html.toLowerCase();
  const opening = tagPattern(name);
  const elements: HtmlElement[] = [];
  for (let match = opening.exec(html); match !== null; match = opening.exec(html)) {
    const start = match.index + match[0].length;
    const close = lower.indexOf(`</${name}`, start);
    const end = close === -1 ? html.length : close;
    elements.push({ attributes: parseAttributes(match[1] ?? ""), content: html.slice(start, end) });
    opening.lastIndex = end;
  }
  return elements;
}

/** Text content plus the alternative text of images inside: what an accessible name is computed from. */
export function textOf(markup: string): string {
  const alts = tags(markup, "img")
    .map((image) => image.alt ?? "")
    .join(" ");
  return decodeEntities(`${markup.replace(/<[^<>]*>/g, " ")} ${alts}`)
    .replace(/\s+/g, " ")
    .trim();
}

export interface Heading {
  level: number;
  text: string;
}

const HEADING_PATTERN = /<h([1-6])\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>/gi;

/** All h1–h6 in tree order (HTML §4.3.11 "the outline is all headings in a document, in tree order"). */
export function headingOutline(html: string): Heading[] {
  const markup = renderedMarkup(html);
  const lower = markup.toLowerCase();
  const headings: Heading[] = [];
  HEADING_PATTERN.lastIndex = 0;
  for (let match = HEADING_PATTERN.exec(markup); match !== null; match = HEADING_PATTERN.exec(markup)) {
    const level = Number(match[1]);
    const start = match.index + match[0].length;
    const close = lower.indexOf(`</h${level}`, start);
    const end = close === -1 ? markup.length : close;
    headings.push({ level, text: textOf(markup.slice(start, end)) });
    HEADING_PATTERN.lastIndex = end;
  }
  return headings;
}

const ANY_TAG_PATTERN = /<([a-z][a-z0-9-]*)\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>/gi;

export interface Landmarks {
  /** `<main>` elements and `role="main"`, not counting hidden ones. */
  main: number;
  banner: number;
  navigation: number;
  contentinfo: number;
}

const LANDMARK_ELEMENTS: Readonly<Record<string, keyof Landmarks>> = {
  main: "main",
  header: "banner",
  nav: "navigation",
  footer: "contentinfo",
};

/** Landmark regions by their implicit (element) or explicit (`role`) role. */
export function landmarks(html: string): Landmarks {
  const counts: Landmarks = { main: 0, banner: 0, navigation: 0, contentinfo: 0 };
  const markup = renderedMarkup(html);
  for (const match of markup.matchAll(ANY_TAG_PATTERN)) {
    const attributes = parseAttributes(match[2] ?? "");
    if ("hidden" in attributes) continue;
    const role = attributes.role?.trim().toLowerCase();
    const landmark =
      role !== undefined && role in counts
        ? (role as keyof Landmarks)
        : LANDMARK_ELEMENTS[(match[1] ?? "").toLowerCase()];
    if (landmark !== undefined) counts[landmark] += 1;
  }
  return counts;
}

export interface FormControl {
  tag: "input" | "select" | "textarea";
  type: string;
  attributes: Attributes;
  /** A `<label for>` names it, or a non-empty `<label>` wraps it. */
  labelled: boolean;
}

export interface HtmlForm {
  attributes: Attributes;
  controls: FormControl[];
}

const FORM_PART_PATTERN = /<(\/?)(label|input|select|textarea)\b((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>/gi;
/** Controls that are not parameters a person or agent fills in. */
const NON_FIELD_TYPES = new Set(["hidden", "submit", "reset", "button", "image"]);

/** The fields of one form, each marked with whether a label names it (one forward pass). */
function formControls(content: string): FormControl[] {
  const controls: FormControl[] = [];
  const labelFor = new Set<string>();
  let openLabel: { start: number; wrapped: FormControl[] } | null = null;
  for (const match of content.matchAll(FORM_PART_PATTERN)) {
    const closing = match[1] === "/";
    const tag = (match[2] ?? "").toLowerCase();
    const attributes = parseAttributes(match[3] ?? "");
    if (tag === "label") {
      if (!closing) {
        if (attributes.for !== undefined) labelFor.add(attributes.for);
        openLabel = { start: match.index + match[0].length, wrapped: [] };
      } else if (openLabel !== null) {
        const named = textOf(content.slice(openLabel.start, match.index)) !== "";
        for (const control of openLabel.wrapped) control.labelled ||= named;
        openLabel = null;
      }
      continue;
    }
    if (closing) continue;
    const type = tag === "input" ? (attributes.type ?? "text").toLowerCase() : tag;
    if (NON_FIELD_TYPES.has(type)) continue;
    const control: FormControl = { tag: tag as FormControl["tag"], type, attributes, labelled: false };
    controls.push(control);
    openLabel?.wrapped.push(control);
  }
  for (const control of controls) {
    const id = control.attributes.id;
    if (id !== undefined && labelFor.has(id)) control.labelled = true;
  }
  return controls;
}

export function htmlForms(html: string): HtmlForm[] {
  return elementsNamed(renderedMarkup(html), "form").map((form) => ({
    attributes: form.attributes,
    controls: formControls(form.content),
  }));
}

/** A short way to point at a form in a message: its tool name, id, name or action. */
export function describeForm(form: HtmlForm, position: number): string {
  const { toolname, id, name, action } = form.attributes;
  if (toolname !== undefined) return `form "${toolname}"`;
  if (id !== undefined) return `form#${id}`;
  if (name !== undefined) return `form "${name}"`;
  return action === undefined ? `form ${position + 1}` : `form ${position + 1} (action ${action})`;
}

export interface PageScripts {
  inline: string[];
  /** `src` values resolved against the page URL. */
  external: string[];
}

const NON_SCRIPT_TYPE = /json|template|text\/(?!javascript)/i;

/** Inline script bodies and external script URLs; JSON-LD, import maps and templates are not code. */
export function pageScripts(html: string, base: string): PageScripts {
  const scripts: PageScripts = { inline: [], external: [] };
  for (const script of elementsNamed(withoutComments(html), "script")) {
    const type = script.attributes.type?.trim() ?? "";
    if (type !== "" && type.toLowerCase() !== "module" && NON_SCRIPT_TYPE.test(type)) continue;
    const src = script.attributes.src;
    if (src === undefined) scripts.inline.push(script.content);
    else if (URL.canParse(src, base)) scripts.external.push(new URL(src, base).href);
  }
  return scripts;
}
