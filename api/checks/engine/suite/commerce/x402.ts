import { z } from "zod";
import { type CheckContext, defineCheck, listProblems, notApplicable, scanError } from "../../check-types.ts";
import { ACCEPT_JSON, fetchJsonDocument, pathUrl } from "../../documents/document.ts";
import { findOpenApi } from "../../documents/openapi.ts";
import type { ScanResponse } from "../../fetch/fetcher.ts";
import { ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { type PaidOperations, paidOperations } from "../../openapi/paid-operations.ts";
import { describeIssues, isRecord, parseJson } from "../../parse/json.ts";
import { describeAnswer } from "../../parse/media-type.ts";
import { Verdict } from "../../verdict.ts";

const SPECS = "https://github.com/x402-foundation/x402/tree/main/specs";
const V2 = "x402 transports-v2/http.md";
const V1 = "x402 transports-v1/http.md";

/** x402-specification-v2.md §5.1: CAIP-2 network ids such as `eip155:8453`. */
const CAIP2 = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/;
const ATOMIC = /^\d+$/;

const PaymentRequiredV2Schema = z.object({
  x402Version: z.literal(2),
  resource: z.object({ url: z.string().min(1) }),
  accepts: z
    .array(
      z.object({
        scheme: z.string().min(1),
        network: z.string().regex(CAIP2, "must be a CAIP-2 network id, e.g. eip155:8453"),
        amount: z.string().regex(ATOMIC, "must be an amount in atomic units, as a string"),
        asset: z.string().min(1),
        payTo: z.string().min(1),
        maxTimeoutSeconds: z.number().int().positive(),
      }),
    )
    .min(1),
});

const PaymentRequirementsV1Schema = z.object({
  x402Version: z.literal(1),
  accepts: z
    .array(
      z.object({
        scheme: z.string().min(1),
        network: z.string().min(1),
        maxAmountRequired: z.string().regex(ATOMIC, "must be an amount in atomic units, as a string"),
        asset: z.string().min(1),
        payTo: z.string().min(1),
        resource: z.string().min(1),
        description: z.string(),
        maxTimeoutSeconds: z.number().int().positive(),
      }),
    )
    .min(1),
});

/** A paid endpoint the scan may ask: GET only, since a scan calls nothing that could change state. */
interface PaidEndpoint {
  url: URL;
  source: string;
}

/** `resources` of the x402 discovery document (x402scan's `/.well-known/x402`): URL strings or `{url, method}`. */
function discoveryResources(value: unknown, base: string): PaidEndpoint[] {
  const resources = isRecord(value) && Array.isArray(value.resources) ? value.resources : [];
  return resources.flatMap((resource) => {
    const raw = isRecord(resource) ? resource.url : resource;
    const get = !isRecord(resource) || resource.method === undefined || String(resource.method).toUpperCase() === "GET";
    return get && typeof raw === "string" && !raw.includes("{") && URL.canParse(raw, base)
      ? [{ url: new URL(raw, base), source: "/.well-known/x402" }]
      : [];
  });
}

interface AdvertisedEndpoints {
  endpoints: PaidEndpoint[];
  /** Operations the OpenAPI description documents as paid that the scan cannot ask, each with why. */
  unprobed: string[];
}

/**
 * The OpenAPI description's paid operations, and the x402 discovery document of a site that publishes an agent-commerce
 * manifest (UCP or ACP): only there is a request of the shared budget spent on it; elsewhere the OpenAPI description
 * says which operations answer 402.
 */
async function advertisedEndpoints(context: CheckContext): Promise<AdvertisedEndpoints> {
  let fromDiscovery: PaidEndpoint[] = [];
  if (context.facts.signals.commerceProtocol) {
    const discovery = await fetchJsonDocument(context, pathUrl(context, "/.well-known/x402"), ACCEPT_JSON);
    if (discovery.json?.ok === true) fromDiscovery = discoveryResources(discovery.json.value, discovery.response.url);
  }
  let fromOpenApi: PaidOperations = { probeable: [], unprobed: [] };
  try {
    const { spec, document } = await findOpenApi(context);
    if (spec !== null && document !== null)
      fromOpenApi = paidOperations(spec, document.response.url, context.target.origin);
  } catch (error) {
    // An unreadable description leaves the discovery document to go on; one the budget kept unread is unknown, not unpaid.
    if (!(error instanceof ScanFetchError) || error.kind === "request-budget") throw error;
  }
  const described = fromOpenApi.probeable.map((paid) => ({ url: paid.url, source: "the OpenAPI description" }));
  return {
    endpoints: [...fromDiscovery, ...described].filter((endpoint) => endpoint.url.origin === context.target.origin),
    unprobed: fromOpenApi.unprobed,
  };
}

/** The payment requirement of a 402: v2 in the `PAYMENT-REQUIRED` header (base64 JSON), v1 in the JSON body. */
export function judgePaymentRequired(response: ScanResponse, verdict: Verdict): string {
  const header = response.headers["payment-required"];
  if (header !== undefined) {
    const decoded = parseJson(Buffer.from(header, "base64").toString("utf8"));
    if (!decoded.ok) {
      verdict.must(`${V2} (Payment Required Signaling)`, "PAYMENT-REQUIRED is not base64 JSON");
      return "";
    }
    const parsed = PaymentRequiredV2Schema.safeParse(decoded.value);
    if (!parsed.success)
      verdict.must(
        `x402-specification-v2.md §5.1`,
        `the PaymentRequired header is not valid: ${describeIssues(parsed.error)}`,
      );
    return "v2 (PAYMENT-REQUIRED header)";
  }
  const body = parseJson(response.text);
  const value = body.ok ? body.value : null;
  const version = isRecord(value) ? value.x402Version : undefined;
  if (version === 1) {
    const parsed = PaymentRequirementsV1Schema.safeParse(value);
    if (!parsed.success)
      verdict.must(
        `x402-specification-v1.md §5.1`,
        `the payment requirements are not valid: ${describeIssues(parsed.error)}`,
      );
    return "v1 (JSON body)";
  }
  if (version === 2)
    verdict.must(
      `${V2} (Payment Required Signaling)`,
      "an x402 v2 requirement belongs in the PAYMENT-REQUIRED header, not only the body",
    );
  else
    verdict.must(
      `${V2}; ${V1}`,
      "the 402 carries no payment requirement: no PAYMENT-REQUIRED header (v2) and no JSON body with x402Version 1",
    );
  return "";
}

export const x402Payments = defineCheck({
  id: "commerce.x402",
  title: "Paid endpoints answer 402 with a well-formed x402 payment requirement",
  requests:
    "`GET /.well-known/x402` (sites with a UCP or ACP manifest only); the OpenAPI description; `GET` of the first advertised paid endpoint on the site, without payment (an OpenAPI path joined to its server's URL, base path kept, path parameters filled from the description's examples)",
  passes:
    "an endpoint advertised as paid (x402 discovery `resources`, or an OpenAPI GET operation with a `402` response) answers `402` with a `PAYMENT-REQUIRED` header of base64 JSON (`x402Version` 2, `resource`, `accepts[]` with `scheme`, CAIP-2 `network`, `amount`, `asset`, `payTo`, `maxTimeoutSeconds`) or a v1 JSON body (`x402Version` 1, `accepts[]`); no advertised paid endpoint is `n/a`, and so is one the scan cannot ask (not GET, another origin, a path parameter without an example), named with why",
  category: "commerce",
  severity: "medium",
  maturity: "standard",
  profiles: ["api", "commerce"],
  remediation:
    "Answer an unpaid request to a paid endpoint with 402 and a PAYMENT-REQUIRED header holding the base64 JSON PaymentRequired object (x402Version 2, resource, accepts[] with scheme, CAIP-2 network, amount, asset, payTo, maxTimeoutSeconds).",
  prompt:
    'For every endpoint we sell per call, answer requests without PAYMENT-SIGNATURE with HTTP 402 and the header PAYMENT-REQUIRED: base64(JSON {"x402Version":2,"resource":{"url":"<endpoint>"},"accepts":[{"scheme":"exact","network":"eip155:8453","amount":"<atomic units>","asset":"<token address>","payTo":"<our address>","maxTimeoutSeconds":60}]}), as x402 specs/transports-v2/http.md shows.',
  specUrls: [`${SPECS}/transports-v2/http.md`, `${SPECS}/transports-v1/http.md`, `${SPECS}/x402-specification-v2.md`],
  async run(context) {
    const { endpoints, unprobed } = await advertisedEndpoints(context);
    const endpoint = endpoints[0];
    const notProbed = `paid operations documented but not probed: ${listProblems(unprobed, 4)}`;
    if (endpoint === undefined)
      return notApplicable(
        unprobed.length === 0 ? "no endpoint on the site is advertised as paid (x402 is optional)" : notProbed,
      );
    let response: ScanResponse;
    try {
      response = await context.trail.request({
        url: endpoint.url,
        headers: { accept: "application/json" },
        exact: true,
        probe: true,
      });
    } catch (error) {
      if (!(error instanceof ScanFetchError) || error.kind !== "request-budget") throw error;
      const asked = `GET ${endpoint.url.pathname} (the scan's request budget ran out)`;
      return scanError(`paid operations documented but not probed: ${listProblems([asked, ...unprobed], 4)}`);
    }
    const verdict = new Verdict();
    const where = `GET ${endpoint.url.pathname} (from ${endpoint.source})`;
    if (response.status === 402) {
      const kind = judgePaymentRequired(response, verdict);
      return verdict.outcome(`${where} answers 402 with an x402 ${kind} requirement`);
    }
    if (response.status >= 200 && response.status < 300)
      verdict.should(
        `${V2} (Payment Required Signaling)`,
        `${where} answers ${response.status} without payment though it is advertised as paid`,
      );
    else verdict.must(`${V2} (Payment Required Signaling)`, `${where} answers ${describeAnswer(response)}, not 402`);
    return verdict.outcome("");
  },
});
