import { defineCheck, fail, listProblems, notApplicable, pass } from "../../check-types.ts";
import { loadCommerceManifests, loadPricing } from "../../documents/agent-docs.ts";
import { absence } from "../../documents/document.ts";
import { findOpenApi } from "../../documents/openapi.ts";
import { loadHome } from "../../documents/site.ts";
import { ScanFetchError } from "../../fetch/scan-fetch-error.ts";
import { isRecord } from "../../parse/json.ts";
import { priceOffers, readJsonLd } from "../../parse/json-ld.ts";
import { mediaTypeOf } from "../../parse/media-type.ts";

function pricingLooksMachineReadable(value: unknown): boolean {
  const text = JSON.stringify(value);
  return /"(price|amount|unit_amount|priceCurrency)"\s*:/.test(text) && /"(currency|priceCurrency)"\s*:/.test(text);
}

export const machineReadablePricing = defineCheck({
  id: "commerce.pricing",
  requests: "JSON-LD on `/`, `/pricing.json`",
  passes: "prices an agent can read: schema.org offers or a pricing document with amounts and currencies",
  title: "Prices are machine-readable",
  category: "commerce",
  severity: "medium",
  maturity: "standard",
  profiles: ["commerce"],
  remediation:
    "Publish prices as data: schema.org Offer (price, priceCurrency) in JSON-LD, and/or a /pricing.json linked from the api-catalog.",
  prompt:
    "Expose our prices to agents: add schema.org Product/Offer JSON-LD (price, priceCurrency) to the pricing and product pages, and publish /pricing.json (amounts in minor units plus currency) linked from /.well-known/api-catalog as service-meta.",
  specUrls: ["https://schema.org/Offer", "https://www.rfc-editor.org/rfc/rfc9727"],
  async run(context) {
    const { response } = await loadHome(context);
    const offers = priceOffers(readJsonLd(response.text));
    const pricing = await loadPricing(context);
    const pricingOk = pricing.json?.ok === true && pricingLooksMachineReadable(pricing.json.value);
    const sources = [
      ...(offers.length > 0 ? [`${offers.length} JSON-LD offer(s)`] : []),
      ...(pricingOk ? ["/pricing.json"] : []),
    ];
    if (sources.length > 0) return pass(`machine-readable prices: ${sources.join(" and ")}`);
    if (pricing.state === "fallback")
      return fail("/pricing.json answers with a fallback page, and the homepage has no JSON-LD offers");
    return fail("no JSON-LD offers on the homepage and no /pricing.json with amounts and currencies");
  },
});

export const commerceProtocols = defineCheck({
  id: "commerce.protocols",
  requests: "`/.well-known/ucp`, `/.well-known/acp.json`, `x-payment-info` in the OpenAPI document",
  passes: "if present: each manifest parses; reports UCP, ACP and MPP",
  title: "Agent commerce protocols (x402, ACP, UCP, MPP) in use",
  category: "commerce",
  severity: "info",
  maturity: "draft",
  profiles: ["commerce"],
  remediation:
    "Informational: if agents should be able to pay, consider publishing a UCP (/.well-known/ucp) or ACP (/.well-known/acp.json) manifest, or x402/MPP payment requirements.",
  prompt:
    "If we want agents to buy from us directly, evaluate ACP (/.well-known/acp.json), UCP (/.well-known/ucp) and MPP (x-payment-info in OpenAPI); publish only what we actually support.",
  specUrls: ["https://www.x402.org", "https://developers.openai.com/commerce", "https://ucp.dev"],
  async run(context) {
    const { ucp, acp } = await loadCommerceManifests(context);
    const found: string[] = [];
    const broken: string[] = [];
    for (const [name, document] of [
      ["UCP", ucp],
      ["ACP", acp],
    ] as const) {
      if (absence(document, name) !== null) continue;
      if (document.json?.ok === true && isRecord(document.json.value)) found.push(name);
      else
        broken.push(
          `${name} manifest is not JSON (${document.response.status} ${mediaTypeOf(document.response) || "untyped"})`,
        );
    }
    try {
      const { spec } = await findOpenApi(context);
      if (spec !== null && JSON.stringify(spec).includes('"x-payment-info"')) found.push("MPP (x-payment-info)");
    } catch (error) {
      if (!(error instanceof ScanFetchError)) throw error;
    }
    if (broken.length > 0) return fail(listProblems(broken));
    if (found.length === 0) return notApplicable("no agent commerce protocol detected");
    return pass(`detected: ${found.join(", ")}`);
  },
});

export const commerceChecks = [machineReadablePricing, commerceProtocols];
