import { z } from "zod";
import { type CheckContext, defineCheck, notApplicable } from "../../check-types.ts";
import { loadCommerceManifests } from "../../documents/agent-docs.ts";
import { absence, describeState } from "../../documents/document.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { describeIssues, isRecord, parseJson } from "../../parse/json.ts";
import { describeAnswer } from "../../parse/media-type.ts";
import { Verdict } from "../../verdict.ts";

const DISCOVERY_RFC =
  "https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/blob/main/rfcs/rfc.discovery.md";
const CHECKOUT_RFC =
  "https://github.com/agentic-commerce-protocol/agentic-commerce-protocol/blob/main/rfcs/rfc.agentic_checkout.md";
const RFC = "ACP rfc.discovery.md";

const API_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** rfc.discovery.md §4.2 `DiscoveryResponse`, with its closed enums; unknown members are allowed. */
const DiscoverySchema = z.object({
  protocol: z.object({
    name: z.literal("acp"),
    version: z.string().regex(API_VERSION, "must be an API version, YYYY-MM-DD"),
    supported_versions: z.array(z.string().regex(API_VERSION, "must be YYYY-MM-DD")).min(1),
    documentation_url: z.url().optional(),
  }),
  api_base_url: z.url(),
  transports: z.array(z.enum(["rest", "mcp"])).min(1),
  capabilities: z.object({
    services: z.array(z.enum(["checkout", "orders", "delegate_payment", "carts"])),
    intervention_types: z.array(z.enum(["3ds", "biometric", "address_verification"])).optional(),
  }),
});

/** rfc.agentic_checkout.md §3.1 "Error Shape (flat)". */
const FlatErrorSchema = z.object({
  type: z.enum(["invalid_request", "processing_error", "service_unavailable"]),
  code: z.string().min(1),
  message: z.string().min(1),
});

/** Member names that identify a merchant, which an unauthenticated document must not carry (§2.2, §7.1, §7.4). */
function merchantMembers(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((item, index) => merchantMembers(item, `${path}[${index}]`));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, member]) => {
    const here = path === "" ? key : `${path}.${key}`;
    return /^merchant(_id|Id)?$/.test(key) ? [here] : merchantMembers(member, here);
  });
}

function maxAge(cacheControl: string): number | null {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl);
  return match === null ? null : Number(match[1]);
}

/** An agent that has no token must be refused: 401, and the protocol's flat error as the body. */
function judgeProbe(response: ScanResponse, verdict: Verdict): void {
  const where = new URL(response.url).pathname;
  if (response.status >= 200 && response.status < 300)
    verdict.must(
      "rfc.agentic_checkout.md §3.1 (Authorization: Bearer REQUIRED)",
      `${where} answers ${response.status} to a request without a bearer token`,
    );
  else if (response.status !== 401)
    verdict.should(
      "RFC 9110 §15.5.2",
      `${where} answers ${describeAnswer(response)} without a bearer token, not 401 (an agent cannot tell it needs a token)`,
    );
  else {
    const body = parseJson(response.text);
    const flat = body.ok ? FlatErrorSchema.safeParse(body.value) : null;
    if (flat === null || !flat.success)
      verdict.should(
        "rfc.agentic_checkout.md §3.1 (Error Shape)",
        `the 401 body is not the flat error {type, code, message}${flat === null ? "" : `: ${describeIssues(flat.error)}`}`,
      );
  }
}

async function probeCheckout(context: CheckContext, base: string, verdict: Verdict): Promise<string> {
  const url = new URL(`${base.replace(/\/+$/, "")}/checkout_sessions/cs_agentready_${context.scanToken}`);
  if (url.origin !== context.target.origin) {
    verdict.hint(RFC, `api_base_url is on ${url.host}; a scan reads only the site, so the API was not probed`);
    return "the API on another host was not probed";
  }
  // GET never changes state, and without a token no seller may look the session up (§3.1).
  const response = await context.trail.request({
    url,
    headers: { accept: "application/json" },
    exact: true,
    probe: true,
  });
  judgeProbe(response, verdict);
  return `GET ${url.pathname} without a token answers ${response.status}`;
}

export const acpDiscovery = defineCheck({
  id: "commerce.acp",
  title: "The ACP discovery document (/.well-known/acp.json) is valid and its API refuses strangers",
  requests:
    "`GET /.well-known/acp.json`; `GET <api_base_url>/checkout_sessions/<random id>` without a token (same host only)",
  passes:
    "the document's required fields and closed enums (`protocol.name` `acp`, `YYYY-MM-DD` versions, `rest` or `mcp`, known services), no `merchant_id` or merchant object, `Cache-Control: public, max-age` ≥ 3600 (SHOULD); the API answers `401` with the flat error `{type, code, message}`; a proposal, so at most `warn`; no document is `n/a`",
  category: "commerce",
  severity: "low",
  maturity: "proposal",
  profiles: ["commerce"],
  remediation:
    "If you sell through the Agentic Commerce Protocol, serve /.well-known/acp.json with protocol {name: acp, version, supported_versions}, api_base_url, transports and capabilities.services, without merchant identifiers, with Cache-Control: public, max-age=3600; refuse API calls without a bearer token with 401 and {type, code, message}.",
  prompt:
    'Publish /.well-known/acp.json as in ACP rfc.discovery.md: {"protocol":{"name":"acp","version":"<latest YYYY-MM-DD>","supported_versions":[…oldest first]},"api_base_url":"https://<our host>/<api>","transports":["rest"],"capabilities":{"services":["checkout"]}}, served as application/json with Cache-Control: public, max-age=3600 and no merchant_id; make every ACP endpoint answer a request without Authorization: Bearer with 401 and {"type":"invalid_request","code":"unauthorized","message":"…"}.',
  specUrls: [DISCOVERY_RFC, CHECKOUT_RFC],
  async run(context) {
    const { acp } = await loadCommerceManifests(context);
    const absent = absence(acp, "ACP discovery document (ACP is optional)");
    if (absent !== null) return notApplicable(absent);
    const verdict = new Verdict();
    if (acp.state !== "found" || acp.json === null || !acp.json.ok)
      return verdict
        .must(
          `${RFC} §4.1`,
          acp.json?.ok === false ? `acp.json is not JSON: ${acp.json.error}` : describeState(acp, "acp.json"),
        )
        .outcome("");
    const parsed = DiscoverySchema.safeParse(acp.json.value);
    if (!parsed.success)
      verdict.must(`${RFC} §4.2, §10`, `acp.json is not a DiscoveryResponse: ${describeIssues(parsed.error)}`);
    const merchant = merchantMembers(acp.json.value);
    if (merchant.length > 0)
      verdict.must(`${RFC} §7.1, §7.4`, `the public document carries merchant identifiers: ${merchant.join(", ")}`);
    const cacheControl = acp.response.headers["cache-control"] ?? "";
    const age = maxAge(cacheControl);
    if (!/\bpublic\b/i.test(cacheControl) || age === null || age < 3600)
      verdict.should(
        `${RFC} §4.1 (Caching)`,
        `Cache-Control is "${cacheControl || "absent"}", not public with max-age ≥ 3600`,
      );
    const probed = parsed.success ? await probeCheckout(context, parsed.data.api_base_url, verdict) : "";
    const versions = parsed.success ? parsed.data.protocol.supported_versions.join(", ") : "";
    return verdict.outcome(`ACP ${versions}; ${probed}`);
  },
});
