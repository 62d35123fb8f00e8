import { defineCheck, fail, judge, listProblems, notApplicable, pass, warn } from "../../check-types.ts";
import { absence, describeState, targetAnswers } from "../../documents/document.ts";
import { deadFailures, sampleBlocker, sampleTargets } from "../../documents/sampling.ts";
import { describedByLlmsTxt, loadHome, loadLlmsFull, loadLlmsTxt } from "../../documents/site.ts";
import { describeAnswer, isMarkdownMediaType, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import { Verdict } from "../../verdict.ts";

const LLMS_SPEC = "https://llmstxt.org";

export const llmsExists = defineCheck({
  id: "llms.exists",
  requests: "`GET` the llms.txt the homepage names with `rel=describedby`, then `/llms.txt`, then `/docs/llms.txt`",
  passes: "`2xx`, `text/plain` or `text/markdown`, UTF-8, within the size cap, not HTML",
  title: "llms.txt is served as text",
  category: "discovery",
  severity: "high",
  maturity: "draft",
  profiles: ["content", "docs", "api"],
  remediation: "Serve /llms.txt as text/plain or text/markdown (UTF-8), never as an HTML page.",
  prompt:
    "Create /llms.txt (llmstxt.org format) and serve it with Content-Type text/plain; charset=utf-8 or text/markdown; charset=utf-8.",
  specUrls: [LLMS_SPEC],
  async run(context) {
    const { document, llms } = await loadLlmsTxt(context);
    const type = mediaTypeOf(document.response);
    if (llms === null) return fail(describeState(document, "llms.txt"));
    if (type !== "text/plain" && !isMarkdownMediaType(type))
      return fail(`llms.txt is served as ${type || "no Content-Type"}, not text/plain or text/markdown`);
    return pass(`${new URL(document.response.url).pathname} answers ${document.response.status} ${type}`);
  },
});

export const llmsStructure = defineCheck({
  id: "llms.structure",
  requests: "the `llms.txt` body",
  passes:
    "one H1 first, a blockquote summary (`warn` if missing), H2 sections of `- [title](url)` links, 50 characters to 50,000",
  title: "llms.txt follows the llmstxt.org structure",
  category: "discovery",
  severity: "medium",
  maturity: "draft",
  profiles: ["content", "docs", "api"],
  remediation:
    "Start llms.txt with one H1, then a > summary, then ## sections of `- [title](url): note` links; keep it under 50,000 characters.",
  prompt:
    "Restructure our /llms.txt: first line `# <Site name>`, then a `> one-paragraph summary`, then `## Docs`, `## API`, `## Optional` sections, each a list of `- [Title](absolute URL to a .md page): what it covers`.",
  specUrls: [LLMS_SPEC],
  async run(context) {
    const { llms } = await loadLlmsTxt(context);
    if (llms === null) return notApplicable("no readable llms.txt (see llms.exists)");
    const errors: string[] = [];
    if (!llms.startsWithH1) errors.push("it does not start with an H1");
    if (llms.h1Count !== 1) errors.push(`it has ${llms.h1Count} H1 headings (exactly one expected)`);
    if (llms.links.length === 0) errors.push("it has no markdown links");
    if (llms.chars < 50) errors.push(`it is only ${llms.chars} characters long`);
    const cautions: string[] = [];
    if (!llms.hasSummary) cautions.push("no > summary under the title");
    if (llms.sections.length === 0) cautions.push("no ## sections");
    if (llms.links.some((link) => !link.inList || link.section === null))
      cautions.push("some links are outside ## link lists");
    if (llms.chars > 50_000) cautions.push(`${llms.chars} characters is over the 50,000 an agent fetches at once`);
    return judge(
      { problems: errors, cautions },
      `H1 "${llms.title ?? ""}", summary, ${llms.sections.length} section(s), ${llms.links.length} link(s)`,
    );
  },
});

const MAX_LINKS = 10;
const TEXT_PATH = /\.(md|mdx|txt|json|ya?ml)$/i;

export const llmsLinksResolve = defineCheck({
  id: "llms.links-resolve",
  samples: true,
  requests: "up to 10 of its links, same-site first",
  passes:
    "at least 95 % answer `2xx` (a host that does not resolve or a private address counts as dead); same-site links prefer Markdown targets",
  title: "llms.txt links resolve, preferably to Markdown",
  category: "discovery",
  severity: "medium",
  maturity: "draft",
  profiles: ["content", "docs", "api"],
  remediation:
    "Fix or remove dead links in llms.txt and point same-site links at the .md (or other text) version of each page.",
  prompt:
    "Check every link in our /llms.txt: each must answer 200, and links to our own pages should point at their Markdown twins (<page>.md) rather than HTML.",
  specUrls: [LLMS_SPEC, "https://agentdocsspec.com"],
  async run(context) {
    const { llms, document } = await loadLlmsTxt(context);
    if (llms === null) return notApplicable("no readable llms.txt (see llms.exists)");
    const base = document.response.url;
    const urls = [
      ...new Set(llms.links.flatMap((link) => (URL.canParse(link.url, base) ? [new URL(link.url, base).href] : []))),
    ].filter((url) => /^https?:/.test(url));
    if (urls.length === 0) return notApplicable("llms.txt has no http(s) links");
    // Same-site links first: they are the site's own to fix, and other checks often fetched them already.
    const ordered = [
      ...urls.filter((url) => new URL(url).origin === context.target.origin),
      ...urls.filter((url) => new URL(url).origin !== context.target.origin),
    ];
    const sample = await sampleTargets(context, ordered, { url: (url) => url, limit: MAX_LINKS });
    const dead = [
      ...sample.answered
        .filter((result) => !targetAnswers(context, result.response))
        .map((result) => `${new URL(result.url).pathname} → ${describeAnswer(result.response)}`),
      ...deadFailures(sample),
    ];
    const checked = sample.answered.length + deadFailures(sample).length;
    if (dead.length > 0) {
      const message = `${dead.length} of ${checked} checked links are dead: ${listProblems(dead)}`;
      return (checked - dead.length) / checked >= 0.95 ? warn(message) : fail(message);
    }
    const blocker = sampleBlocker(sample);
    if (blocker !== null) throw blocker;
    const textual = sample.answered.filter(
      (result) => TEXT_PATH.test(new URL(result.url).pathname) || isMarkdownMediaType(mediaTypeOf(result.response)),
    );
    const capped = urls.length > checked ? ` (checked ${checked} of ${urls.length})` : "";
    if (textual.length < checked / 2)
      return warn(`links resolve${capped}, but most point at HTML rather than Markdown`);
    return pass(`all ${checked} checked links resolve${capped}`);
  },
});

export const llmsFull = defineCheck({
  id: "llms.full",
  requests: "`GET /llms-full.txt`",
  passes: "if present: `2xx` text with an H1",
  title: "llms-full.txt carries the full text",
  category: "discovery",
  severity: "info",
  maturity: "draft",
  profiles: ["docs"],
  remediation: "Optionally publish /llms-full.txt with the full Markdown of your docs, served as text.",
  prompt:
    "Generate /llms-full.txt: an H1 with the site name followed by the full Markdown of every documentation page, served as text/plain; charset=utf-8.",
  specUrls: [LLMS_SPEC],
  async run(context) {
    const { document, llms } = await loadLlmsFull(context);
    const absent = absence(document, "llms-full.txt, which is optional");
    if (absent !== null) return notApplicable(absent);
    if (llms === null) return fail(describeState(document, "llms-full.txt"));
    const type = mediaTypeOf(document.response);
    if (type !== "text/plain" && !isMarkdownMediaType(type))
      return fail(`llms-full.txt is served as ${type || "no Content-Type"}`);
    if (llms.h1Count === 0) return warn("llms-full.txt has no H1 title");
    return pass(`llms-full.txt: ${Math.round(llms.chars / 1000)}k characters`);
  },
});

const LLMS_V2 = "llms.txt v2, nbs/index.qmd";

/** llms.txt v2: "a file covers the URLs under its path", so `/docs/llms.txt` covers `/docs/…`. */
export function covers(llmsTxt: string, page: string): boolean {
  const file = new URL(llmsTxt);
  const target = new URL(page);
  return file.origin === target.origin && target.pathname.startsWith(file.pathname.replace(/llms\.txt$/, ""));
}

export const llmsDescribedBy = defineCheck({
  id: "llms.describedby",
  requests: "the homepage's `Link` header and `<head>` (already fetched); a named llms.txt the scan has not fetched",
  passes:
    '`/` names, with `rel="describedby"` (header or `<link>`), an llms.txt that answers `2xx` and covers it (its directory is a prefix of the path), the most specific one the scan knows; missing or misdirected is `warn` (v2 recommends it)',
  title: "The homepage points at the llms.txt that covers it (rel=describedby)",
  category: "discovery",
  severity: "low",
  maturity: "draft",
  profiles: ["content", "docs", "api"],
  remediation:
    'Name the llms.txt that covers each page with rel="describedby", as a Link header (`Link: </llms.txt>; rel="describedby"`, also right for non-HTML files) or a <link> in the <head>; point at the most specific file (/docs/llms.txt for /docs/ pages).',
  prompt:
    'Add to every page of our site either the response header `Link: </llms.txt>; rel="describedby"; type="text/plain"` or `<link rel="describedby" type="text/plain" href="/llms.txt">` in the <head>; pages under a path with its own llms.txt (such as /docs/llms.txt) must point at that one instead.',
  specUrls: [LLMS_SPEC, "https://github.com/AnswerDotAI/llms-txt/blob/main/nbs/changes.qmd"],
  async run(context) {
    const { llms, document } = await loadLlmsTxt(context);
    if (llms === null) return notApplicable("no readable llms.txt to point at (see llms.exists)");
    // The homepage only: judging more pages would cost requests the scan's budget keeps for essential checks.
    const home = (await loadHome(context)).response;
    const known = document.response.url;
    const target = describedByLlmsTxt(context, home)[0];
    const verdict = new Verdict();
    if (target === undefined)
      return verdict
        .should(`${LLMS_V2} (rel=describedby)`, '/ does not name its llms.txt with rel="describedby"')
        .outcome("");
    const named = new URL(target).pathname;
    if (!covers(target, home.url))
      return verdict
        .should(`${LLMS_V2} (a file covers the URLs under its path)`, `/ names ${named}, which does not cover it`)
        .outcome("");
    if (known !== target && covers(known, home.url) && known.length > target.length)
      verdict.should(
        `${LLMS_V2} (the most specific file applies)`,
        `/ names ${named}, but ${new URL(known).pathname} covers it more closely`,
      );
    const answer = target === known ? document.response : await context.trail.resolve(target);
    if (!isSuccess(answer))
      verdict.should(`${LLMS_V2} (rel=describedby)`, `/ names ${named}, which answers ${describeAnswer(answer)}`);
    return verdict.outcome(`/ names ${named}, which covers it, with rel="describedby"`);
  },
});

export const llmsChecks = [llmsExists, llmsStructure, llmsLinksResolve, llmsFull, llmsDescribedBy];
