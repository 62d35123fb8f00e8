import { formatBytes } from "../../../../../src/lib/format-bytes.ts";
import { quoteSiteText } from "../../../../../src/lib/site-text.ts";
import { defineCheck, fail, listProblems, pass, warn } from "../../check-types.ts";
import { ACCEPT_HTML, describeState, targetAnswers } from "../../documents/document.ts";
import { deadFailures, sampleBlocker, sampleTargets, skippedNote } from "../../documents/sampling.ts";
import {
  fetchSitemap,
  loadAgentsMd,
  loadHome,
  loadRobots,
  loadSitemap,
  ROBOTS_PARSE_LIMIT,
} from "../../documents/site.ts";
import { htmlLinks } from "../../parse/html.ts";
import { isAgentLink, parseLinkHeader } from "../../parse/link-header.ts";
import { describeAnswer, isMarkdownMediaType, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import { parseSitemap } from "../../parse/sitemap.ts";
import { Verdict } from "../../verdict.ts";

export const robotsExists = defineCheck({
  id: "robots.exists",
  requests: "`GET /robots.txt`",
  passes:
    "`200`, `text/plain`, UTF-8, at least one `User-agent` group (RFC 9309 MUSTs); each line a crawler would skip is named with its number (`warn`); only the first 500 KiB is parsed, and a file past the size cap fails",
  title: "robots.txt exists and parses",
  category: "discovery",
  severity: "high",
  maturity: "standard",
  profiles: "all",
  remediation: "Serve /robots.txt as text/plain with at least one User-agent group (RFC 9309).",
  prompt:
    "Create /robots.txt served as text/plain; charset=utf-8 with a `User-agent: *` group, explicit groups for AI agents, and a Sitemap: line.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9309"],
  async run(context) {
    const { document, robots } = await loadRobots(context);
    const { response } = document;
    if (robots === null) return fail(describeState(document, "robots.txt"));
    const verdict = new Verdict();
    if (response.fault !== null)
      verdict.must(
        "RFC 9309 §2.5",
        `robots.txt ${response.fault.message.replace(/^\S+ /, "")}, and crawlers need parse only the first 500 KiB`,
      );
    else if (response.body.length > ROBOTS_PARSE_LIMIT)
      verdict.should(
        "RFC 9309 §2.5",
        `robots.txt is ${formatBytes(response.body.length)}; crawlers need only parse the first 500 KiB, so rules past that may be ignored`,
      );
    if (response.invalidUtf8At !== null)
      verdict.must(
        "RFC 9309 §2.3",
        `robots.txt is not valid UTF-8 (the first bad byte is at offset ${response.invalidUtf8At})`,
      );
    const type = mediaTypeOf(response);
    if (type !== "text/plain")
      verdict.must("RFC 9309 §2.3", `robots.txt is served as ${type || "no Content-Type"}, not text/plain`);
    if (robots.groups.length === 0) verdict.must("RFC 9309 §2.2", "robots.txt has no User-agent group");
    for (const bad of robots.badLines.slice(0, 5))
      verdict.should("RFC 9309 §2.2", `line ${bad.line} ${quoteSiteText(bad.text)}: ${bad.reason}`);
    if (robots.badLines.length > 5)
      verdict.should("RFC 9309 §2.2", `and ${robots.badLines.length - 5} more line(s) crawlers skip`);
    return verdict.outcome(`robots.txt has ${robots.groups.length} group(s) and no line crawlers would skip`);
  },
});

const SITEMAPS = "https://www.sitemaps.org/protocol.html";
/** Sitemap URLs fetched to see that they exist: enough to catch a stale sitemap, few enough for the request budget. */
const MAX_SITEMAP_SAMPLE = 5;

export const sitemapValid = defineCheck({
  id: "robots.sitemap",
  samples: true,
  requests: "`Sitemap:` lines, `/sitemap.xml`, and up to 5 of its URLs",
  passes:
    "a valid sitemap of same-host URLs whose sampled URLs answer `2xx` (a gzip-compressed `.xml.gz` is inflated up to 5 MB; past that it is a bomb and fails); a missing `lastmod` is noted",
  title: "A valid sitemap of same-host URLs that answer",
  category: "discovery",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Publish /sitemap.xml (urlset or sitemapindex, sitemaps.org 0.9 namespace) listing only same-host <loc> URLs that answer 200, with <lastmod> dates, and name it in robots.txt with a Sitemap: line.",
  prompt:
    "Generate /sitemap.xml listing every public page of our site with absolute same-host <loc> URLs and a <lastmod> date each, and add `Sitemap: <absolute URL>` to robots.txt.",
  specUrls: ["https://www.sitemaps.org/protocol.html", "https://www.rfc-editor.org/rfc/rfc9309#name-other-records"],
  async run(context) {
    const { robots } = await loadRobots(context);
    const loaded = await loadSitemap(context, robots);
    if (loaded.document.state !== "found") return fail(describeState(loaded.document, "the sitemap"));
    const verdict = new Verdict();
    if (loaded.parsed === null || !loaded.parsed.ok)
      return verdict
        .must(SITEMAPS, `the sitemap is not valid: ${loaded.parsed?.ok === false ? loaded.parsed.error : "unreadable"}`)
        .outcome("");
    let { sitemap } = loaded.parsed;
    const sitemapHost = new URL(loaded.document.response.url).host;
    if (sitemap.kind === "sitemapindex") {
      const child = sitemap.entries[0];
      if (child === undefined) return verdict.must(SITEMAPS, "the sitemap index lists no sitemaps").outcome("");
      const childDocument = await fetchSitemap(context, new URL(child.loc, loaded.document.response.url).href);
      const childParsed = childDocument.state === "found" ? parseSitemap(childDocument.response.text) : null;
      if (childParsed === null || !childParsed.ok)
        return verdict
          .must(SITEMAPS, `the first sitemap of the index is not usable (${describeState(childDocument, child.loc)})`)
          .outcome("");
      sitemap = childParsed.sitemap;
    }
    if (sitemap.entries.length === 0) return verdict.should(SITEMAPS, "the sitemap lists no URLs").outcome("");
    const offHost = sitemap.entries.filter(
      (entry) => !URL.canParse(entry.loc) || new URL(entry.loc).host !== sitemapHost,
    );
    if (offHost.length > 0)
      verdict.must(
        `${SITEMAPS}#location`,
        `${offHost.length} sitemap URL(s) are not absolute URLs on ${sitemapHost}, e.g. ${offHost[0]?.loc ?? ""}`,
      );
    const pages = sitemap.entries.filter((entry) => !offHost.includes(entry));
    const sample = await sampleTargets(context, pages, {
      url: (entry) => new URL(entry.loc).href,
      limit: MAX_SITEMAP_SAMPLE,
      accept: () => ACCEPT_HTML,
    });
    // Only the status counts: an SPA serves every real page with the same shell as a path that does not exist.
    const dead = sample.answered.filter((result) => !isSuccess(result.response));
    if (dead.length > 0)
      verdict.must(
        `${SITEMAPS}#xmlTagDefinitions`,
        `${dead.length} of ${sample.answered.length} sampled sitemap URLs do not answer 2xx: ${listProblems(dead.map((result) => `${new URL(result.url).pathname} → ${describeAnswer(result.response)}`))}`,
      );
    for (const dead of deadFailures(sample)) verdict.must(`${SITEMAPS}#xmlTagDefinitions`, dead);
    if (!verdict.failing) {
      const blocker = sampleBlocker(sample);
      if (blocker !== null) throw blocker;
    }
    const withoutLastmod = sitemap.entries.filter((entry) => entry.lastmod === null).length;
    if (withoutLastmod > 0)
      verdict.hint(
        `${SITEMAPS}#lastmoddef`,
        `${withoutLastmod} of ${sitemap.entries.length} URLs have no <lastmod>, which crawlers use to schedule visits`,
      );
    const named =
      loaded.source === "robots" ? "named in robots.txt" : "found at /sitemap.xml (robots.txt does not name it)";
    return verdict.outcome(
      `sitemap ${named}: ${sitemap.entries.length} URLs on ${sitemapHost}; ${sample.answered.length} sampled answer 2xx${skippedNote(sample.skipped.length)}`,
    );
  },
});

const MAX_TARGETS = 8;

export const linkHeaders = defineCheck({
  id: "link.headers",
  samples: true,
  requests: "`GET /`",
  passes:
    "a `Link` header with agent relations (`api-catalog`, `service-desc`, `service-doc`, `describedby`, Markdown `alternate`), each resolving",
  title: "The homepage's Link header points agents at machine-readable surfaces",
  category: "discovery",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  remediation:
    'Send a Link header on / with agent-useful relations (api-catalog, service-desc, service-doc, describedby → llms.txt, alternate type="text/markdown") whose targets all resolve.',
  prompt:
    'Add a Link response header to GET / such as: </.well-known/api-catalog>; rel="api-catalog", </openapi.json>; rel="service-desc", </llms.txt>; rel="describedby", </index.md>; rel="alternate"; type="text/markdown". Only list targets that exist.',
  specUrls: [
    "https://www.rfc-editor.org/rfc/rfc8288",
    "https://www.rfc-editor.org/rfc/rfc8631",
    "https://www.rfc-editor.org/rfc/rfc9727",
  ],
  async run(context) {
    const { response } = await loadHome(context);
    const links = parseLinkHeader(response.headers.link, response.url);
    if (links.length === 0) return fail("GET / sends no Link header");
    const useful = links.filter(isAgentLink);
    if (useful.length === 0)
      return fail(
        `the Link header has no agent-useful relation (found: ${[...new Set(links.flatMap((link) => link.rels))].join(", ")})`,
      );
    const sample = await sampleTargets(context, useful, { url: (link) => link.href, limit: MAX_TARGETS });
    const dead = [
      ...sample.answered
        .filter((result) => !targetAnswers(context, result.response))
        .map((result) => `${new URL(result.url).pathname} → ${describeAnswer(result.response)}`),
      ...deadFailures(sample),
    ];
    if (dead.length > 0) return fail(`Link targets do not resolve: ${listProblems(dead)}`);
    const blocker = sampleBlocker(sample);
    if (blocker !== null) throw blocker;
    const rels = [...new Set(useful.flatMap((link) => link.rels.filter((rel) => rel !== "")))];
    return pass(
      `Link header advertises ${rels.join(", ")}; ${sample.answered.length} target(s) resolve${skippedNote(sample.skipped.length)}`,
    );
  },
});

export const linkHtml = defineCheck({
  id: "link.html",
  requests: "the homepage `<head>`",
  passes: "`<link>` elements for the Markdown alternate, API catalog and canonical URL",
  title: "The homepage's <head> links its canonical URL and agent surfaces",
  category: "discovery",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    'Add <link rel="canonical">, and <link rel="alternate" type="text/markdown">, rel="api-catalog" or rel="ai-catalog" where they exist.',
  prompt:
    'In the <head> of our pages add <link rel="canonical" href="…"> and <link rel="alternate" type="text/markdown" href="<page>.md">; on the homepage also link rel="api-catalog" and rel="ai-catalog" if we publish them.',
  specUrls: ["https://html.spec.whatwg.org/multipage/links.html#linkTypes", "https://www.rfc-editor.org/rfc/rfc6596"],
  async run(context) {
    const { response } = await loadHome(context);
    const links = htmlLinks(response.text, response.url);
    const canonical = links.some((link) => link.rels.includes("canonical"));
    const agentLinks = links.filter(
      (link) =>
        (link.rels.includes("alternate") && isMarkdownMediaType(link.type ?? "")) ||
        link.rels.some((rel) => ["api-catalog", "ai-catalog", "ard", "service-desc"].includes(rel)),
    );
    const found = [...new Set(agentLinks.flatMap((link) => link.rels))].join(", ");
    if (canonical && agentLinks.length > 0) return pass(`<head> links canonical and ${found}`);
    if (canonical) return warn("<head> links canonical but no markdown alternate or catalog");
    if (agentLinks.length > 0) return warn(`<head> links ${found} but no canonical URL`);
    return fail("<head> links neither a canonical URL nor any agent surface");
  },
});

export const agentsMd = defineCheck({
  id: "agents-md",
  requests: "`GET /AGENTS.md`",
  passes: "Markdown with at least two sections",
  title: "AGENTS.md tells coding agents how to work with the project",
  category: "discovery",
  severity: "low",
  maturity: "draft",
  profiles: ["docs", "api"],
  remediation: "Publish /AGENTS.md as Markdown with at least two sections (what it is, how to use it, conventions).",
  prompt:
    "Write /AGENTS.md for our site: an H1, then ## sections on what the service does, how an agent should use the API/docs (with links), and conventions/limits. Serve it as text/markdown.",
  specUrls: ["https://agents.md"],
  async run(context) {
    const { document, text } = await loadAgentsMd(context);
    if (text === null) return fail(describeState(document, "AGENTS.md"));
    const type = mediaTypeOf(document.response);
    if (!isMarkdownMediaType(type) && type !== "text/plain")
      return fail(`AGENTS.md is served as ${type || "no Content-Type"}`);
    const sections = text.split(/\r?\n/).filter((line) => /^##\s+\S/.test(line)).length;
    if (sections < 2) return warn(`AGENTS.md has ${sections} section(s); agents look for what/how/conventions`);
    return pass(`AGENTS.md has ${sections} sections`);
  },
});

export const discoveryChecks = [robotsExists, sitemapValid, linkHeaders, linkHtml, agentsMd];
