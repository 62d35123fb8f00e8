import { type CheckContext, defineCheck,
  judge, fail, listProblems, notApplicable, pass, warn } from "../../check-types.ts";
import {
  ACCEPT_MARKDOWN,
  advertisedHomeTwin,
  advertisedTwin,
  listedTwin,
  loadPageHtml,
  samplePage,
  twinCandidates,
} from "../../documents/pages.ts";
import { probeUnknownPaths } from "../../documents/probes.ts";
import { loadHome } from "../../documents/site.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { visibleText } from "../../parse/html.ts";
import { bodyLooksLikeHtml, isMarkdownMediaType, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";

const MD_SPEC = "https://developers.cloudflare.com/fundamentals/reference/markdown-for-agents/";

function variesOnAccept(response: ScanResponse): boolean {
  return (response.headers.vary ?? "").split(",").some((value) => ["accept", "*"].includes(value.trim().toLowerCase()));
}

async function negotiated(
  context: CheckContext,
  url: string,
  accept: string,
): Promise<{ url: string; response: ScanResponse; problem: string | null; caution: string | null; page?: false }> {
  const response = await context.trail.request({ url, headers: { accept }, exact: true });
  const path = new URL(url).pathname;
  const type = mediaTypeOf(response);
  const sampled = url !== context.target.root.href;
  // A sampled link that is dead says nothing about negotiation (link checks judge dead links).
  if (sampled && (response.status === 404 || response.status === 410))
    return { url, response, problem: null, caution: null, page: false };
  if (!isSuccess(response))
    return { url, response, problem: `${path} answers ${response.status} to Accept: ${accept}`, caution: null };
  const html = bodyLooksLikeHtml(response.text) || type === "text/html";
  // A sampled link that turns out to be a document (JSON, an image…) is not a page: it says nothing about negotiation.
  if (sampled && !html && !isMarkdownMediaType(type) && type !== "")
    return { url, response, problem: null, caution: null, page: false };
  if (!isMarkdownMediaType(type) || html)
    return {
      url,
      response,
      problem: `${path} answers ${type || "no Content-Type"} to Accept: ${accept}${html ? ": the body is HTML" : ""}`,
      caution: null,
    };
  return {
    url,
    response,
    problem: null,
    caution: variesOnAccept(response)
      ? null
      : `${path} sends Markdown without Vary: Accept (shared caches may serve it to browsers)`,
  };
}

export const markdownNegotiation = defineCheck({
  id: "md.negotiate",
  requests: "`/` and a sampled page with `Accept: text/markdown`",
  passes:
    '`200`, `Content-Type: text/markdown`, no HTML in the body ("the body is HTML" otherwise); missing `Vary: Accept` is `warn`',
  title: "Pages answer Accept: text/markdown with Markdown",
  category: "content",
  severity: "high",
  maturity: "draft",
  profiles: ["content", "docs"],
  remediation:
    "When a request prefers text/markdown, answer with the page as Markdown (Content-Type: text/markdown; charset=utf-8) and send Vary: Accept on both representations.",
  prompt:
    "Add content negotiation to our pages: if the Accept header prefers text/markdown (also with q-values such as `text/markdown, text/html;q=0.9`), respond 200 with the page's Markdown and Content-Type text/markdown; charset=utf-8. Send Vary: Accept on the HTML and the Markdown response.",
  specUrls: [MD_SPEC, "https://www.rfc-editor.org/rfc/rfc7763", "https://www.rfc-editor.org/rfc/rfc9110#name-vary"],
  async run(context) {
    const page = await samplePage(context);
    const probes = [negotiated(context, context.target.root.href, ACCEPT_MARKDOWN)];
    if (page !== null) probes.push(negotiated(context, page, "text/markdown, text/html;q=0.9"));
    const results = await Promise.all(probes);
    const problems = results.flatMap((result) => (result.problem === null ? [] : [result.problem]));
    const cautions = results.flatMap((result) => (result.caution === null ? [] : [result.caution]));
    return judge(
      { problems, cautions },
      `${results
        .filter((result) => result.page !== false)
        .map((result) => new URL(result.url).pathname)
        .join(" and ")} negotiate Markdown with Vary: Accept`,
    );
  },
});

/** The first candidate that answers 2xx; else the first one's answer. A form that is not there costs one HEAD. */
async function resolveTwin(context: CheckContext, candidates: readonly string[]): Promise<{ url: string; response: ScanResponse }> {
  let first: { url: string; response: ScanResponse } | null = null;
  for (const url of candidates) {
    const response = await context.trail.resolve(url);
    if (isSuccess(response)) return { url, response };
    first ??= { url, response };
  }
  if (first === null) throw new Error("resolveTwin needs at least one candidate");
  return first;
}

export const markdownTwins = defineCheck({
  id: "md.twin",
  requests:
    "`HEAD` of each sampled page's twin (advertised with `rel=alternate`, listed in llms.txt, or `page.md` / `page.html.md`), and one bogus `.md`",
  passes:
    "`2xx text/markdown` for real pages (llms.txt v2: either URL form), `404` for the bogus one",
  title: "Pages have .md twins, and a bogus .md is a 404",
  category: "content",
  severity: "medium",
  maturity: "draft",
  profiles: ["docs"],
  remediation:
    'Serve <page>.md or <page>.html.md (text/markdown) next to each page, advertise it with rel="alternate" type="text/markdown", and answer 404 for .md paths that do not exist.',
  prompt:
    'For every HTML page of our docs, serve the same content as Markdown at the page URL + `.md` (and /index.md for /) with Content-Type text/markdown; charset=utf-8, and point to it from the page with <link rel="alternate" type="text/markdown" href="…">. Unknown .md URLs must answer 404, not the HTML app shell.',
  specUrls: ["https://llmstxt.org", MD_SPEC],
  async run(context) {
    const home = await advertisedHomeTwin(context);
    const homeCandidates = home === null ? twinCandidates(context.target.root.href) : [home];
    const page = await samplePage(context);
    const pageCandidates =
      page === null
        ? []
        : await (async () => {
            // The site's own word first: a twin llms.txt lists (no request), else the page's rel=alternate.
            const listed = await listedTwin(context, home);
            if (listed !== null) return [listed];
            const html = await loadPageHtml(context, page);
            const advertised = html === null ? null : advertisedTwin(html);
            return advertised === null ? twinCandidates(page) : [advertised];
          })();
    // Both twins and the bogus probe at once: a twin another check samples must be asked before the budget's reserve.
    const samePage = pageCandidates.length === 0 || pageCandidates.some((url) => homeCandidates.includes(url));
    const [homeTwin, pageTwin, probes] = await Promise.all([
      resolveTwin(context, homeCandidates),
      samePage ? null : resolveTwin(context, pageCandidates),
      probeUnknownPaths(context, context.scanToken),
    ]);
    const twins = pageTwin === null ? [homeTwin] : [homeTwin, pageTwin];
    const problems: string[] = [];
    const cautions: string[] = [];
    for (const { url, response } of twins) {
      const path = new URL(url).pathname;
      if (!isSuccess(response)) problems.push(`${path} answers ${response.status}`);
      else if (mediaTypeOf(response) === "text/plain") cautions.push(`${path} is text/plain rather than text/markdown`);
      else if (!isMarkdownMediaType(mediaTypeOf(response)))
        problems.push(`${path} is served as ${mediaTypeOf(response) || "no Content-Type"}`);
    }
    const bogus = probes.find((probe) => probe.suffix === ".md");
    if (bogus !== undefined && isSuccess(bogus.response))
      problems.push(`a bogus ${new URL(bogus.url).pathname} answers ${bogus.response.status} instead of 404`);
    const paths = [...new Set(twins.map((twin) => new URL(twin.url).pathname))];
    return judge(
      { problems, cautions },
      `${paths.join(", ")} ${paths.length === 1 ? "serves" : "serve"} Markdown; unknown .md paths are 404`,
    );
  },
});

async function homeMarkdown(context: CheckContext): Promise<ScanResponse | null> {
  const negotiatedHome = await context.trail.request({
    url: context.target.root,
    headers: { accept: ACCEPT_MARKDOWN },
    exact: true,
  });
  if (
    isSuccess(negotiatedHome) &&
    isMarkdownMediaType(mediaTypeOf(negotiatedHome)) &&
    !bodyLooksLikeHtml(negotiatedHome.text)
  )
    return negotiatedHome;
  const twin = await advertisedHomeTwin(context);
  if (twin === null) return null;
  const response = await context.trail.get(twin, { accept: ACCEPT_MARKDOWN });
  return isSuccess(response) && !bodyLooksLikeHtml(response.text) ? response : null;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? [];

export const markdownQuality = defineCheck({
  id: "md.quality",
  requests: "Markdown against HTML",
  passes:
    "no HTML or navigation left in (fail); the same main content, clearly smaller, fenced code with a language (each a `warn`: an abridged twin is never a fail)",
  title: "The Markdown is clean and matches the page",
  category: "content",
  severity: "medium",
  maturity: "draft",
  profiles: ["docs"],
  remediation:
    "Generate the Markdown from the main content only: no navigation, footer or HTML left in, clearly smaller than the HTML, the same text, and a language on every fenced code block.",
  prompt:
    "Make our Markdown versions contain only the page's main content: strip <nav>, <header>, <footer> and scripts, keep all body text, and tag every fenced code block with its language (```ts, ```bash).",
  specUrls: ["https://agentdocsspec.com", MD_SPEC],
  async run(context) {
    const markdown = await homeMarkdown(context);
    if (markdown === null) return notApplicable("no Markdown version of / to compare (see md.negotiate and md.twin)");
    const html = (await loadHome(context)).response;
    const problems: string[] = [];
    const cautions: string[] = [];
    if (/<(html|nav|footer|script|div)\b/i.test(markdown.text))
      problems.push("HTML markup or navigation is left in the Markdown");
    const htmlWords = [...new Set(words(visibleText(html.text, { mainOnly: true })))];
    const markdownWords = new Set(words(markdown.text));
    const overlap =
      htmlWords.length === 0 ? 1 : htmlWords.filter((word) => markdownWords.has(word)).length / htmlWords.length;
    // Parity is a SHOULD (agentdocsspec): an abridged twin is still a usable Markdown version, so it warns, never fails.
    if (overlap < 0.8)
      cautions.push(
        `only ${Math.round(overlap * 100)}% of the page's main-content words appear in the Markdown (an abridged version)`,
      );
    const reduction = 1 - markdown.body.length / Math.max(html.body.length, 1);
    if (reduction < 0.4) cautions.push(`the Markdown is only ${Math.round(reduction * 100)}% smaller than the HTML`);
    const fences = markdown.text.match(/^```.*$/gm) ?? [];
    const openings = fences.filter((_, index) => index % 2 === 0);
    if (openings.some((fence) => fence.trim() === "```")) cautions.push("fenced code blocks without a language");
    return judge(
      { problems, cautions },
      `${Math.round(overlap * 100)}% content parity, ${Math.round(reduction * 100)}% smaller than the HTML`,
    );
  },
});

export const contentChecks = [markdownNegotiation, markdownTwins, markdownQuality];
