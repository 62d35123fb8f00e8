import { findOperation, type OperationId } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { type DiscoveryContext, serviceRef } from "./documents.ts";
import { isOperationAvailable, type ServiceState } from "./state.ts";

/** `/pricing.json`: every price the service charges. Checkout URLs are `null` while checkout is unavailable. */
export function pricingDocument(ctx: DiscoveryContext, state: ServiceState) {
  const { pricing, products, service } = ctx.content;
  const can = (id: OperationId) => isOperationAvailable(findOperation(id), state, service);
  const { checks } = pricing;
  return {
    $schema: absolute(ctx.siteUrl, paths.schema("pricing")),
    service: serviceRef(ctx),
    plans: [
      {
        id: "free-summary",
        title: "Readiness summary",
        description: `Score, level and one line per check; ${checks.free_checks_per_day} free checks a day.`,
        price: null,
        credits: null,
      },
      {
        id: "report-unlock",
        title: "Full report",
        description: "Evidence trail, remediation and fix prompts for one report.",
        price: checks.unlock,
        credits: 1,
      },
      ...checks.packs.map((pack) => ({
        id: pack.id,
        title: pack.title,
        description: `${pack.credits} credits; one credit unlocks one report.`,
        price: pack.price,
        credits: pack.credits,
      })),
    ],
    checks: {
      free_checks_per_day: checks.free_checks_per_day,
      unlock: checks.unlock,
      checkout: can("checkoutCheck") ? absolute(ctx.siteUrl, "/api/v1/checks/{id}/checkout") : null,
      redeem: can("redeemCredit") ? absolute(ctx.siteUrl, "/api/v1/checks/{id}/redeem") : null,
    },
    store: products
      .filter((product) => product.data.published)
      .map((product) => ({
        id: product.id,
        title: product.data.title,
        kind: product.data.kind,
        price: product.data.price,
        on_sale: product.data.on_sale,
        checkout:
          can("startStoreCheckout") && product.data.on_sale
            ? absolute(ctx.siteUrl, paths.productCheckout(product.id))
            : null,
      })),
  };
}
