import { MonitorFrequencySchema } from "../../schemas/requests/monitors.ts";
import { findOperation, type OperationId } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { type DiscoveryContext, serviceRef } from "./documents.ts";
import { isOperationAvailable, type ServiceState } from "./state.ts";

/** `/pricing.json`: every price the service charges. Checkout URLs are `null` while checkout is unavailable. */
export function pricingDocument(ctx: DiscoveryContext, state: ServiceState) {
  const { pricing, products, service } = ctx.content;
  const can = (id: OperationId) => isOperationAvailable(findOperation(id), state, service);
  const { checks, monitors } = pricing;
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
      {
        id: "monitoring-free",
        title: "Site monitoring",
        description: `Up to ${monitors.free_sites} sites per e-mail address, checked daily or weekly, with history, a badge and an e-mail when a site regresses.`,
        price: null,
        credits: null,
      },
    ],
    checks: {
      free_checks_per_day: checks.free_checks_per_day,
      unlock: checks.unlock,
      checkout: can("checkoutCheck") ? absolute(ctx.siteUrl, "/api/v1/checks/{id}/checkout") : null,
      redeem: can("redeemCredit") ? absolute(ctx.siteUrl, "/api/v1/checks/{id}/redeem") : null,
    },
    monitors: {
      free_sites: monitors.free_sites,
      frequencies: [...MonitorFrequencySchema.options],
      request: can("requestMonitor") ? absolute(ctx.siteUrl, "/api/v1/monitors") : null,
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
