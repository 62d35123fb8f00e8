import { type CheckContext, defineCheck, fail, listProblems, pass, warn } from "../../check-types.ts";
import { loadHome, loadLlmsTxt, loadRobots, loadSitemap } from "../../documents/site.ts";
import { ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { htmlLang, htmlLinks, htmlMeta, htmlTitle, visibleText } from "../../parse/html.ts";
import { hasType, readJsonLd } from "../../parse/json-ld.ts";

const APP_SHELL =
  /<div\s+id=["'](?:root|app|__next|__nuxt|svelte)["'][^>]*>\s*<\/div>|enable javascript to run this app/i;

export const serverRendered = defineCheck({
  id: "page.ssr",
  requests: "raw HTML of `/`",
  passes: "the main content is present without JavaScript",
  title: "The homepage's content is in the HTML, without JavaScript",
  category: "content",
  severity: "high",
  maturity: "standard",
  profiles: ["content", "docs"],
  remediation:
    "Render the main content on the server (SSR or static generation) so agents that do not run JavaScript can read it.",
  prompt:
    "Make our pages render their main content in the initial HTML response (server-side rendering or static generation), not only after client-side JavaScript runs.",
  specUrls: ["https://agentdocsspec.com", "https://web.dev/articles/rendering-on-the-web"],
  async run(context) {
    const { response } = await loadHome(context);
    const text = visibleText(response.text);
    const shell = APP_SHELL.test(response.text);
    if (text.length >= 1_000 || (text.length >= 250 && !shell))
      return pass(`${text.length} characters of text without JavaScript`);
    if (shell || text.length < 100)
      return fail(
        `only ${text.length} characters of text without JavaScript${shell ? "; the page is an empty app shell" : ""}`,
      );
    return warn(`only ${text.length} characters of text without JavaScript`);
  },
});

export const pageMeta = defineCheck({
  id: "page.meta",
  requests: "the homepage `<head>`",
  passes: "title, meta description, canonical link, `lang`",
  title: "Title, description, canonical URL and language are declared",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation: 'Give every page a <title>, <meta name="description">, <link rel="canonical"> and <html lang>.',
  prompt:
    'Add to every page of our site: a unique <title>, <meta name="description" content="…">, <link rel="canonical" href="absolute URL"> and a lang attribute on <html>.',
  specUrls: [
    "https://html.spec.whatwg.org/multipage/semantics.html#the-title-element",
    "https://www.rfc-editor.org/rfc/rfc6596",
  ],
  async run(context) {
    const { response } = await loadHome(context);
    const missing: string[] = [];
    if (htmlTitle(response.text) === null) missing.push("<title>");
    if ((htmlMeta(response.text).get("description")?.[0] ?? "").trim() === "") missing.push("meta description");
    if (!htmlLinks(response.text, response.url).some((link) => link.rels.includes("canonical")))
      missing.push("canonical link");
    if (htmlLang(response.text) === null) missing.push("<html lang>");
    if (missing.length === 0) return pass("title, description, canonical and lang are set");
    return missing.length === 1 ? warn(`missing ${missing[0] ?? ""}`) : fail(`missing ${missing.join(", ")}`);
  },
});

export const structuredData = defineCheck({
  id: "page.jsonld",
  requests: "JSON-LD in the homepage",
  passes: "parses; schema.org context; Organization or WebSite",
  title: "JSON-LD describes the site (schema.org)",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: ["content"],
  remediation:
    'Add a <script type="application/ld+json"> block with schema.org Organization and WebSite (and Product/SoftwareApplication with offers if you sell something).',
  prompt:
    'Add JSON-LD to our homepage: {"@context":"https://schema.org","@graph":[{"@type":"Organization",…},{"@type":"WebSite",…}]} with name, url and dateModified; add Product/Offer entries with price and priceCurrency for anything we sell.',
  specUrls: ["https://schema.org/docs/gs.html", "https://json-ld.org/spec/latest/json-ld/"],
  async run(context) {
    const { response } = await loadHome(context);
    const reading = readJsonLd(response.text);
    if (reading.blocks === 0) return fail("no JSON-LD on the homepage");
    if (reading.invalidBlocks > 0) return fail(`${reading.invalidBlocks} JSON-LD block(s) do not parse`);
    if (!reading.usesSchemaOrg) return warn("JSON-LD does not use the schema.org vocabulary");
    if (!hasType(reading, "Organization", "WebSite")) return warn("JSON-LD has no Organization or WebSite node");
    return pass(`JSON-LD with ${reading.nodes.length} schema.org node(s), Organization/WebSite included`);
  },
});

interface DatedSignal {
  source: string;
  date: Date;
}

async function freshnessSignals(
  context: CheckContext,
): Promise<{ signals: DatedSignal[]; failure: ScanFetchError | null }> {
  const signals: DatedSignal[] = [];
  let failure: ScanFetchError | null = null;
  const add = (source: string, value: unknown): void => {
    if (typeof value !== "string") return;
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) signals.push({ source, date });
  };
  const { response } = await loadHome(context);
  add("Last-Modified on /", response.headers["last-modified"]);
  for (const node of readJsonLd(response.text).nodes) add("JSON-LD dateModified", node.dateModified);
  try {
    const { robots } = await loadRobots(context);
    const sitemap = await loadSitemap(context, robots);
    if (sitemap.parsed?.ok === true)
      for (const entry of sitemap.parsed.sitemap.entries) add("sitemap lastmod", entry.lastmod);
    const llms = await loadLlmsTxt(context);
    if (llms.llms !== null) add("Last-Modified on llms.txt", llms.document.response.headers["last-modified"]);
  } catch (error) {
    if (!(error instanceof ScanFetchError)) throw error;
    failure = error;
  }
  return { signals, failure };
}

export const freshness = defineCheck({
  id: "freshness",
  requests: "sitemap `lastmod`, `Last-Modified`, JSON-LD dates",
  passes: 'signals exist, are plausible, and are not all "now"',
  title: "Content carries plausible modification dates",
  category: "content",
  severity: "low",
  maturity: "standard",
  profiles: ["content", "docs"],
  remediation:
    "Publish real modification dates: sitemap <lastmod>, Last-Modified headers on static documents, and dateModified in JSON-LD — not the time of the request.",
  prompt:
    "Expose when our content really changed: set <lastmod> per URL in sitemap.xml from the content's last edit, send Last-Modified on llms.txt and static pages, and put dateModified in the homepage JSON-LD.",
  specUrls: [
    "https://www.sitemaps.org/protocol.html#lastmoddef",
    "https://www.rfc-editor.org/rfc/rfc9110#name-last-modified",
  ],
  async run(context) {
    const { signals, failure } = await freshnessSignals(context);
    const now = context.now.getTime();
    const plausible = signals.filter(
      (signal) => signal.date.getTime() <= now + 86_400_000 && signal.date.getUTCFullYear() >= 1995,
    );
    if (plausible.length === 0 && failure !== null) throw failure;
    if (plausible.length === 0)
      return fail(
        signals.length === 0
          ? "no modification dates anywhere (sitemap, headers, JSON-LD)"
          : "every modification date lies in the future or is implausible",
      );
    const sources = [...new Set(plausible.map((signal) => signal.source))];
    if (plausible.every((signal) => Math.abs(now - signal.date.getTime()) < 120_000)) {
      return warn(
        `every date is the time of the request (${listProblems(sources)}), so it says nothing about freshness`,
      );
    }
    const newest = new Date(Math.max(...plausible.map((signal) => signal.date.getTime())));
    return pass(`${plausible.length} date(s) from ${sources.join(", ")}; newest ${newest.toISOString().slice(0, 10)}`);
  },
});

export const pageChecks = [serverRendered, pageMeta, structuredData, freshness];
