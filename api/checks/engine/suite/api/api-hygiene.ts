import {
  type CheckContext,
  type CheckOutcome,
  defineCheck,
  fail,
  judge,
  notApplicable,
  pass,
  warn,
} from "../../check-types.ts";
import { findApiBase } from "../../documents/api-base.ts";
import { describeState, isFallbackBody } from "../../documents/document.ts";
import { findOpenApi } from "../../documents/openapi.ts";
import { loadSecurityTxt } from "../../documents/site.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { advertisesRateLimits, operationsOf } from "../../openapi-lint.ts";
import { isRecord, parseJson } from "../../parse/json.ts";
import { isHtmlResponse, isSuccess, mediaTypeOf } from "../../parse/media-type.ts";
import { parseSecurityTxt } from "../../parse/security-txt.ts";
import { ProblemDetailsSchema } from "../../remote/problem.ts";

/**
 * Where the site says its API is, when that is on another origin: the scanner sends probes only to the origin it checks
 * (content/docs/checks/crawler.md), so the API is not judged here.
 */
async function offOriginApi(context: CheckContext): Promise<CheckOutcome | null> {
  const base = await findApiBase(context);
  if (new URL(base.url).origin === context.target.origin) return null;
  return notApplicable(
    `the API is on another origin (${new URL(base.url).origin}, from ${base.source}): the scanner probes only the origin it checks; check that origin itself`,
  );
}

/** Two error probes with Accept: application/json: an unknown path, and a malformed JSON body (RFC 9457 §3). */
async function errorProbes(context: CheckContext): Promise<Array<{ label: string; response: ScanResponse }>> {
  const base = await findApiBase(context);
  const accept = { accept: "application/json" };
  const [missing, malformed] = await Promise.all([
    context.trail.request({ url: `${base.url}/__nonexistent__`, headers: accept, probe: true }),
    context.trail.request({
      method: "POST",
      url: base.url,
      headers: { ...accept, "content-type": "application/json" },
      body: "{",
    }),
  ]);
  return [
    { label: `GET ${new URL(missing.requestUrl).pathname}`, response: missing },
    { label: `POST ${new URL(malformed.requestUrl).pathname} with malformed JSON`, response: malformed },
  ];
}

export const problemDetails = defineCheck({
  id: "api.problem-json",
  requests: "`404`, `405` and `400` probes on the API base",
  passes: "`application/problem+json`, matching `status`, a `title`",
  title: "API errors are RFC 9457 problem details",
  category: "api-hygiene",
  severity: "medium",
  maturity: "standard",
  profiles: ["api"],
  remediation:
    "Answer every API error with Content-Type application/problem+json and a body whose status equals the HTTP status, with a title and a type that is about:blank or a URL that resolves.",
  prompt:
    'Make every 4xx/5xx response of our API application/problem+json (RFC 9457): {"type":"https://<site>/problems/<code>" (a page that exists) or "about:blank","title":…,"status":<same as HTTP>,"detail":…,"instance":<path>}. This includes unknown routes (404), wrong methods (405) and malformed JSON (400).',
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9457"],
  async run(context) {
    const elsewhere = await offOriginApi(context);
    if (elsewhere !== null) return elsewhere;
    const probes = await errorProbes(context);
    const errors: string[] = [];
    const cautions: string[] = [];
    const types = new Set<string>();
    for (const { label, response } of probes) {
      if (response.status < 400) {
        (label.startsWith("GET") ? errors : cautions).push(`${label} answers ${response.status}`);
        continue;
      }
      if (mediaTypeOf(response) !== "application/problem+json") {
        errors.push(
          `${label} → ${response.status} ${mediaTypeOf(response) || "without a Content-Type"}, not application/problem+json`,
        );
        continue;
      }
      const json = parseJson(response.text);
      const problem = json.ok && isRecord(json.value) ? ProblemDetailsSchema.safeParse(json.value) : null;
      if (problem === null || !problem.success) {
        errors.push(`${label}: the problem body is not a JSON object with RFC 9457 members`);
        continue;
      }
      if (problem.data.status === undefined) cautions.push(`${label}: no status member`);
      else if (problem.data.status !== response.status)
        errors.push(`${label}: status member ${problem.data.status} ≠ HTTP ${response.status}`);
      if (problem.data.title === undefined || problem.data.title.trim() === "") errors.push(`${label}: no title`);
      const type = problem.data.type ?? "about:blank";
      if (type !== "about:blank" && URL.canParse(type, response.url)) types.add(new URL(type, response.url).href);
    }
    for (const type of [...types].slice(0, 1)) {
      const target = await context.trail.resolve(type);
      if (!isSuccess(target)) errors.push(`problem type ${type} answers ${target.status}`);
    }
    return judge(
      { problems: errors, cautions },
      `${probes.map((probe) => probe.response.status).join(" and ")} are problem+json with matching status, a title and a resolvable type`,
    );
  },
});

const RATE_LIMIT_HEADERS = ["ratelimit", "ratelimit-policy", "x-ratelimit-limit", "x-ratelimit-remaining"];

export const rateLimitHeaders = defineCheck({
  id: "api.ratelimit",
  requests: "headers on normal responses (we never provoke a `429`)",
  passes:
    "`RateLimit` and `RateLimit-Policy`, or `X-RateLimit-*`; `n/a` where the API base answers web pages (a 404 page, an SPA shell), not API responses",
  title: "Rate limits are announced in headers",
  category: "api-hygiene",
  severity: "low",
  maturity: "draft",
  profiles: ["api"],
  remediation:
    "Send RateLimit-Policy and RateLimit headers (IETF httpapi draft) on responses of rate-limited endpoints, and Retry-After on 429 and 503.",
  prompt:
    'On every rate-limited endpoint of our API, send `RateLimit-Policy: "default";q=<limit>;w=<window s>` and `RateLimit: "default";r=<remaining>;t=<seconds to reset>` on every response, and Retry-After on 429 responses.',
  specUrls: ["https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/"],
  async run(context) {
    const elsewhere = await offOriginApi(context);
    if (elsewhere !== null) return elsewhere;
    const { spec } = await findOpenApi(context);
    const advertised = advertisesRateLimits(spec);
    const sampled = (await errorProbes(context)).map((probe) => probe.response);
    const base = await findApiBase(context);
    const limited =
      spec === null
        ? undefined
        : operationsOf(spec).find(
            (entry) =>
              entry.method === "get" &&
              !entry.path.includes("{") &&
              isRecord(entry.operation.responses) &&
              "429" in entry.operation.responses,
          );
    if (limited !== undefined) {
      const server = new URL(base.url);
      sampled.push(
        await context.trail.request({
          url: new URL(`${server.pathname.replace(/\/+$/, "")}${limited.path}`, server).href,
          headers: { accept: "application/json" },
          probe: true,
        }),
      );
    }
    const withHeaders = sampled.filter((response) =>
      RATE_LIMIT_HEADERS.some((name) => response.headers[name] !== undefined),
    );
    if (withHeaders.length > 0)
      return pass(`rate-limit headers on ${withHeaders.length} of ${sampled.length} sampled API response(s)`);
    // Where the API should be, the site answers with web pages (a 404 page, an SPA shell): there is no API response to
    // carry rate-limit signals, so there is nothing to judge (a hold-out shop had a warn for its HTML 404 page).
    const guessed = base.source === "the conventional /api";
    const notAnApi = (response: ScanResponse): boolean =>
      isHtmlResponse(response) ||
      isFallbackBody(context, response) ||
      (guessed && (response.status === 404 || response.status === 405));
    if (sampled.every(notAnApi)) {
      return notApplicable(
        `no API answers at ${new URL(base.url).pathname} (${base.source}): the probes get ${[...new Set(sampled.map((response) => `${response.status} ${mediaTypeOf(response) || "untyped"}`))].join(", ")}, not API responses`,
      );
    }
    if (advertised)
      return fail(
        "the API documents rate limiting (429 or RateLimit headers) but its responses carry no rate-limit headers",
      );
    return warn("no rate-limit signals in the API's responses or description");
  },
});

const ONE_YEAR_MS = 366 * 86_400_000;

export const securityTxt = defineCheck({
  id: "security.txt",
  requests: "`/.well-known/security.txt`",
  passes: "RFC 9116: `Contact`, one future `Expires` within a year, matching `Canonical`",
  title: "security.txt tells people how to report vulnerabilities",
  category: "api-hygiene",
  severity: "low",
  maturity: "standard",
  profiles: "all",
  remediation:
    "Serve /.well-known/security.txt as text/plain with Contact, exactly one Expires less than a year ahead, and a Canonical line with its own URL.",
  prompt:
    "Create /.well-known/security.txt (text/plain; charset=utf-8) per RFC 9116 with `Contact: mailto:security@<domain>`, one `Expires:` RFC 3339 timestamp less than a year ahead (regenerated at build), `Canonical: https://<domain>/.well-known/security.txt` and `Preferred-Languages: en`.",
  specUrls: ["https://www.rfc-editor.org/rfc/rfc9116"],
  async run(context) {
    const { document, text } = await loadSecurityTxt(context);
    if (text === null) return fail(describeState(document, "security.txt"));
    const errors: string[] = [];
    const cautions: string[] = [];
    if (mediaTypeOf(document.response) !== "text/plain")
      errors.push(`served as ${mediaTypeOf(document.response) || "no Content-Type"}, not text/plain`);
    const fields = parseSecurityTxt(text);
    if (!fields.some((field) => field.name === "contact")) errors.push("no Contact field");
    const expires = fields.filter((field) => field.name === "expires");
    if (expires.length !== 1) errors.push(`${expires.length} Expires fields (exactly one required)`);
    const expiry = new Date(expires[0]?.value ?? "");
    if (expires.length === 1 && Number.isNaN(expiry.getTime())) errors.push("Expires is not an RFC 3339 date");
    else if (expires.length === 1 && expiry.getTime() <= context.now.getTime())
      errors.push(`the file expired on ${expires[0]?.value ?? ""}`);
    else if (expires.length === 1 && expiry.getTime() - context.now.getTime() > ONE_YEAR_MS)
      cautions.push("Expires is more than a year ahead (RFC 9116 §2.5.5 recommends less)");
    const canonical = fields.filter((field) => field.name === "canonical").map((field) => field.value);
    if (canonical.length > 0 && !canonical.includes(document.response.url))
      errors.push(`Canonical (${canonical.join(", ")}) does not list ${document.response.url}`);
    return judge(
      { problems: errors, cautions },
      `Contact and a valid Expires (${expires[0]?.value ?? ""})${canonical.length > 0 ? ", Canonical matches" : ""}`,
    );
  },
});

export const apiHygieneChecks = [problemDetails, rateLimitHeaders, securityTxt];
