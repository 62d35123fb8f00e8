import { type CheckContext, defineCheck, fail, listProblems, notApplicable, pass, warn } from "../../check-types.ts";
import { ACCEPT_HTML } from "../../documents/document.ts";
import { probeUnknownPaths } from "../../documents/probes.ts";
import { loadHome } from "../../documents/site.ts";
import { ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { htmlMeta, visibleText } from "../../parse/html.ts";
import { isHtmlResponse, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";

const isLocalHttp = (context: CheckContext): boolean =>
  context.target.allowListed && context.target.root.protocol === "http:";

export const homeReachable = defineCheck({
  id: "http.home-200",
  requests: "`GET /`",
  passes:
    "`2xx` HTML after at most 3 same-site redirects; a redirect to a private or metadata address, a loop or too many hops fails, naming the address and why",
  title: "The homepage answers 200 with HTML",
  category: "reachability",
  severity: "critical",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Serve the homepage with a 2xx status and an HTML body, reached in at most three redirects that stay on the site.",
  prompt:
    "Make GET / on our site answer 200 with Content-Type text/html, with at most 3 same-site redirects. Do not block unknown clients at the edge.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9110#name-200-ok"],
  async run(context) {
    const home = await loadHome(context);
    const { response } = home;
    // A refused hop (a private or metadata address), a loop or too many hops: the fault names the address and why.
    if (response.fault !== null && response.fault.kind !== "too-large") return fail(response.fault.message);
    if (response.status >= 300 && response.status < 400)
      return fail(`/ answers ${response.status} without a usable Location`);
    if (!isSuccess(response)) return fail(`/ answers ${response.status}`);
    const hosts = new Set(response.redirects.map((url) => new URL(url).host));
    hosts.delete(context.target.root.host);
    if ([...hosts].some((host) => host.replace(/^www\./, "") !== context.target.root.host.replace(/^www\./, ""))) {
      return warn(`/ redirects to another site (${[...hosts].join(", ")}); agents may not follow`);
    }
    if (!isHtmlResponse(response))
      return warn(`/ answers ${response.status} but as ${mediaTypeOf(response) || "no Content-Type"}, not HTML`);
    return pass(
      `/ answers ${response.status} HTML${response.redirects.length > 0 ? ` after ${response.redirects.length} redirect(s)` : ""}`,
    );
  },
});

export const httpsEnforced = defineCheck({
  id: "http.https",
  requests: "`GET http://host/`, then `https://`",
  passes: "HTTPS works with a valid certificate, and `http` redirects to `https`",
  title: "HTTPS is used and plain HTTP redirects to it",
  category: "reachability",
  severity: "critical",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Serve the site over HTTPS with a valid certificate and redirect every http:// URL to its https:// twin with a 301 or 308.",
  prompt:
    "Configure our site so that http://<host>/ answers 301/308 to https://<host>/ and the certificate is valid for the host.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9110#name-https-uri-scheme"],
  async run(context) {
    if (isLocalHttp(context)) return notApplicable("the target is an allow-listed local http origin");
    if (context.target.root.protocol === "http:") {
      const home = await loadHome(context);
      const final = new URL(home.response.url);
      return final.protocol === "https:"
        ? pass("http:// redirects to https://")
        : fail("the site is served over plain HTTP");
    }
    try {
      await loadHome(context);
    } catch (error) {
      if (error instanceof ScanFetchError && error.kind === "tls") return fail(error.message);
      throw error;
    }
    const plain = new URL(context.target.root.href);
    plain.protocol = "http:";
    try {
      const response = await context.trail.get(plain, { accept: ACCEPT_HTML });
      if (new URL(response.url).protocol === "https:") return pass("HTTPS works and http:// redirects to it");
      return warn(`http:// answers ${response.status} itself instead of redirecting to https://`);
    } catch (error) {
      if (error instanceof ScanFetchError && (error.kind === "network" || error.kind === "timeout"))
        return pass("HTTPS works; plain HTTP is not served");
      throw error;
    }
  },
});

const SIX_MONTHS = 15_552_000;

export const hstsSet = defineCheck({
  id: "http.hsts",
  requests: "response headers",
  passes: "`Strict-Transport-Security` with `max-age` of at least six months",
  title: "Strict-Transport-Security is set for at least six months",
  category: "reachability",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation: "Send `Strict-Transport-Security: max-age=31536000; includeSubDomains` on HTTPS responses.",
  prompt:
    "Add the header Strict-Transport-Security: max-age=31536000; includeSubDomains to every HTTPS response of our site.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc6797"],
  async run(context) {
    if (isLocalHttp(context)) return notApplicable("the target is an allow-listed local http origin");
    const { response } = await loadHome(context);
    if (new URL(response.url).protocol !== "https:")
      return fail("HSTS needs HTTPS; the homepage is served over plain HTTP");
    const header = response.headers["strict-transport-security"];
    if (header === undefined) return fail("no Strict-Transport-Security header on /");
    const maxAge = Number(/max-age\s*=\s*"?(\d+)"?/i.exec(header)?.[1] ?? "0");
    if (maxAge < SIX_MONTHS) return warn(`Strict-Transport-Security max-age is ${maxAge} s, under six months`);
    return pass(`Strict-Transport-Security max-age=${maxAge}`);
  },
});

export const noSoft404 = defineCheck({
  id: "http.soft404",
  requests: "four paths that cannot exist (none, `.json`, `.txt`, `.md`)",
  passes:
    '`404`, not `200` HTML; a site that fails this has every later "file found" result checked by its body, and optional surfaces behind the fallback are `n/a` (the fallback is charged once, here)',
  title: "Unknown paths answer 404, not a 200 page",
  category: "reachability",
  severity: "high",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Answer 404 for paths that do not exist, including .json, .txt and .md paths; never serve the SPA shell with 200 for them.",
  prompt:
    "Make our server answer 404 (not 200 with the app's HTML) for unknown paths, in particular unknown *.json, *.txt and *.md URLs. Keep the SPA fallback only for HTML navigation routes.",
  specUrls: ["https://agentdocsspec.com", "https://www.rfc-editor.org/rfc/rfc9110#name-404-not-found"],
  async run(context) {
    const probes = await probeUnknownPaths(context, context.scanToken);
    const wrong = probes.filter((probe) => isSuccess(probe.response));
    for (const probe of wrong)
      context.trail.note(probe.response, `a path that cannot exist answers ${probe.response.status}`);
    if (wrong.length > 0) {
      const html = wrong.filter((probe) => isHtmlResponse(probe.response));
      const kinds = wrong.map((probe) => (probe.suffix === "" ? "a page" : probe.suffix)).join(", ");
      return fail(
        `unknown paths (${kinds}) answer 200${html.length > 0 ? " with HTML (an SPA fallback)" : ""}, so agents cannot tell what exists`,
      );
    }
    const odd = probes.filter((probe) => probe.response.status !== 404 && probe.response.status !== 410);
    if (odd.length > 0)
      return warn(
        `unknown paths answer ${[...new Set(odd.map((probe) => probe.response.status))].join(", ")} instead of 404`,
      );
    return pass("unknown paths, .json, .txt and .md included, answer 404");
  },
});

const BOT_AGENTS = [
  { token: "ChatGPT-User", product: "compatible; ChatGPT-User/1.0; +https://openai.com/bot" },
  { token: "ClaudeBot", product: "compatible; ClaudeBot/1.0; +claudebot@anthropic.com" },
  { token: "PerplexityBot", product: "compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot" },
];
const CHALLENGE_MARKERS = /captcha|cf-challenge|just a moment\.\.\.|attention required|access denied|are you a robot/i;

export const botParity = defineCheck({
  id: "http.bot-ua-parity",
  requests: "`GET /` with the User-Agents of common user-triggered agents",
  passes: "same status class as a browser, comparable visible text, no CAPTCHA or interstitial",
  title: "AI crawlers and agents get the same homepage as everyone else",
  category: "reachability",
  severity: "high",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Do not block or challenge AI user agents you want to reach you; serve them the same status and content as a browser.",
  prompt:
    "Check our WAF/bot-protection rules: requests with the user agents ChatGPT-User, ClaudeBot and PerplexityBot must get the same 200 homepage as a browser, without CAPTCHA or challenge pages.",
  specUrls: ["https://github.com/ai-robots-txt/ai.robots.txt"],
  async run(context) {
    const { response: baseline } = await loadHome(context);
    const baselineText = visibleText(baseline.text).length;
    const responses = await Promise.all(
      BOT_AGENTS.map((bot) =>
        context.trail.get(context.target.root, {
          accept: ACCEPT_HTML,
          "user-agent": `Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; ${bot.product}) ${context.trail.userAgent}`,
        }),
      ),
    );
    const problems: string[] = [];
    BOT_AGENTS.forEach((bot, index) => {
      const response = responses[index];
      if (response === undefined) return;
      const text = visibleText(response.text);
      if (Math.floor(response.status / 100) !== Math.floor(baseline.status / 100))
        problems.push(`${bot.token} gets ${response.status} (browser: ${baseline.status})`);
      else if (CHALLENGE_MARKERS.test(response.text) && !CHALLENGE_MARKERS.test(baseline.text))
        problems.push(`${bot.token} gets a challenge page`);
      else if (text.length < baselineText * 0.5)
        problems.push(`${bot.token} sees ${text.length} characters of text (browser: ${baselineText})`);
    });
    return problems.length === 0
      ? pass(`${BOT_AGENTS.map((bot) => bot.token).join(", ")} get the same homepage`)
      : fail(listProblems(problems));
  },
});

export const securityHeaders = defineCheck({
  id: "http.security-headers",
  requests: "response headers of `/`",
  passes:
    "`X-Content-Type-Options: nosniff`, frame protection, `Referrer-Policy` and `Content-Security-Policy`; one or two missing is `warn`",
  title: "Basic security headers are sent",
  category: "reachability",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Send X-Content-Type-Options: nosniff, frame protection (CSP frame-ancestors or X-Frame-Options), a Referrer-Policy and a Content-Security-Policy.",
  prompt:
    "Add these response headers to our site: X-Content-Type-Options: nosniff; Referrer-Policy: strict-origin-when-cross-origin; Content-Security-Policy with at least default-src and frame-ancestors 'self'.",
  specUrls: ["https://owasp.org/www-project-secure-headers/"],
  async run(context) {
    const { headers } = (await loadHome(context)).response;
    const csp = headers["content-security-policy"];
    const missing: string[] = [];
    if (headers["x-content-type-options"]?.toLowerCase() !== "nosniff") missing.push("X-Content-Type-Options: nosniff");
    if (headers["x-frame-options"] === undefined && !/frame-ancestors/i.test(csp ?? ""))
      missing.push("frame protection");
    if (headers["referrer-policy"] === undefined) missing.push("Referrer-Policy");
    if (csp === undefined) missing.push("Content-Security-Policy");
    if (missing.length === 0) return pass("nosniff, frame protection, Referrer-Policy and CSP are set");
    return missing.length <= 2 ? warn(`missing: ${missing.join(", ")}`) : fail(`missing: ${missing.join(", ")}`);
  },
});

const BLOCKING_DIRECTIVES = /\b(noindex|noai|noimageai|none)\b/i;

export const noAiOptOut = defineCheck({
  id: "meta.noai",
  requests: "meta robots and `X-Robots-Tag` on `/`",
  passes: "no `noindex`, `noai` or `noimageai`",
  title: "The homepage does not opt out of indexing or AI use",
  category: "reachability",
  severity: "medium",
  maturity: "draft",
  profiles: "all",
  remediation: "Remove noindex/noai/noimageai from meta robots and X-Robots-Tag on pages you want agents to use.",
  prompt:
    'Remove noindex, noai and noimageai from <meta name="robots"> and the X-Robots-Tag header on our public pages.',
  specUrls: ["https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag"],
  async run(context) {
    const { response } = await loadHome(context);
    const meta = htmlMeta(response.text);
    const values = [...(meta.get("robots") ?? []), ...(meta.get("googlebot") ?? [])];
    const header = response.headers["x-robots-tag"];
    const blocked = values.filter((value) => BLOCKING_DIRECTIVES.test(value));
    if (header !== undefined && BLOCKING_DIRECTIVES.test(header)) blocked.push(`X-Robots-Tag: ${header}`);
    return blocked.length === 0
      ? pass("no noindex/noai directives on /")
      : fail(`the homepage opts out: ${blocked.join("; ")}`);
  },
});

export const reachabilityChecks = [
  homeReachable,
  httpsEnforced,
  hstsSet,
  noSoft404,
  botParity,
  securityHeaders,
  noAiOptOut,
];
