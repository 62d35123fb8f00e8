import { defineCheck, notApplicable, pass, warn } from "../../check-types.ts";
import { htmlTitle, visibleText } from "../../parse/html.ts";
import { isSuccess } from "../../parse/media-type.ts";
import { pageFacts } from "../../render/page-facts.ts";
import {
  isPage,
  isRenderedSite,
  NO_JAVASCRIPT_CRAWLERS,
  pathOf,
  recordPage,
  renderedSite,
  usablePage,
} from "./rendered-pages.ts";

/** What a page says when it is an error page, in the words sites use (English; a title or the first lines). */
const NOT_FOUND =
  /\b(?:404|not found|page (?:cannot|can't|could not|couldn't) be found|(?:does not|doesn't|no longer) exists?|no such page|page you (?:are|were|'re) looking for)\b/i;

/** Whether the page reads as a not-found page: in its title, or in the first 300 characters of its text. */
function saysNotFound(html: string): boolean {
  return NOT_FOUND.test(htmlTitle(html) ?? "") || NOT_FOUND.test(visibleText(html).slice(0, 300));
}

export const renderedSoft404 = defineCheck({
  id: "render.soft404",
  rendered: true,
  title: "A page that does not exist says so without JavaScript",
  category: "reachability",
  severity: "medium",
  maturity: "standard",
  profiles: "all",
  requests: "the scan's path that cannot exist, rendered in Chromium, beside its HTML",
  passes:
    'a browser gets `404` there too; `warn` when the site answers `200` and only the rendered page says "not found" (a soft 404 only a browser sees), or when even the rendered page shows content; the `200` itself is charged once, to http.soft404',
  remediation:
    'Answer 404 from the server for URLs your app does not know, instead of a 200 page whose script then shows "not found".',
  prompt:
    "Our single-page app answers 200 for every URL and shows its 'not found' view only in client-side JavaScript. Make the server (or the SSR/edge layer) answer 404 for unknown routes, with the not-found page in the HTML.",
  specUrls: [
    "https://www.rfc-editor.org/rfc/rfc9110#name-404-not-found",
    "https://developers.google.com/search/docs/crawling-indexing/javascript/javascript-seo-basics#avoid-soft-404s",
    NO_JAVASCRIPT_CRAWLERS,
  ],
  async run(context) {
    const site = await renderedSite(context);
    if (!isRenderedSite(site)) return site;
    const probe = usablePage(site, "probe", "the path that cannot exist");
    if (!isPage(probe)) return probe;
    const status = probe.status ?? 0;
    const renderedSays = saysNotFound(probe.html);
    const words = pageFacts(probe.html, probe.finalUrl).words;
    recordPage(context, site, probe, `status ${status}, ${words} words${renderedSays ? ', says "not found"' : ""}`);
    const where = pathOf(probe);
    if (status === 404 || status === 410) return pass(`a browser gets ${status} at ${where} too`);
    if (!isSuccess({ status }))
      return notApplicable(`${where} answers ${status} in a browser; the status is judged by http.soft404`);
    if (renderedSays && !saysNotFound(probe.serverHtml))
      return {
        ...warn(
          `a soft 404 only a browser sees: ${where} answers ${status} and says "not found" only after JavaScript runs; agents that do not run it read a page that exists`,
        ),
        clauses: [{ keyword: "SHOULD", source: "RFC 9110 §15.5.5", problem: `${where} answers ${status}, not 404` }],
      };
    if (renderedSays)
      return notApplicable(
        `${where} answers ${status} with a not-found page in its HTML: charged once, to http.soft404`,
      );
    const moved = new URL(probe.finalUrl).pathname;
    const sent = moved === new URL(probe.url).pathname ? "" : ` (the app moves it to ${moved})`;
    return {
      ...warn(
        `${where}, a path that cannot exist, answers ${status} and a browser shows a page of ${words} words there${sent}: nothing says it is missing, rendered or not`,
      ),
      clauses: [{ keyword: "SHOULD", source: "RFC 9110 §15.5.5", problem: `${where} answers ${status}, not 404` }],
    };
  },
});
