import type { ProductEntry } from "../../content/model.ts";
import type { ProductIndex, PublicProduct } from "../../schemas/product.ts";
import type { DiscoveryContext } from "../discovery/documents.ts";
import { fullyAvailableState, isOperationAvailable, type ServiceState } from "../discovery/state.ts";
import { findOperation } from "../registry.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact } from "./artifact.ts";

/**
 * A product as clients see it. `checkout_url` is null while no checkout can start (the store switched
 * off, or no payment provider configured or answering): an agent is never sent to an address that
 * can only answer 503.
 */
export function publicProduct(product: ProductEntry, ctx: DiscoveryContext, state: ServiceState): PublicProduct {
  const checkoutOpen = isOperationAvailable(findOperation("startStoreCheckout"), state, ctx.content.service);
  return {
    id: product.id,
    title: product.data.title,
    description: product.data.description,
    category: product.data.category,
    kind: product.data.kind,
    price: product.data.price,
    on_sale: product.data.on_sale,
    stock: product.data.stock ?? null,
    has_file: product.data.file !== undefined,
    file_type: product.data.file_type ?? null,
    entitlement_days: product.data.entitlement_days,
    checkout_url: checkoutOpen ? absolute(ctx.siteUrl, paths.productCheckout(product.id)) : null,
    url: absolute(ctx.docsUrl, paths.product(product.id)),
  };
}

export function publishedProducts(ctx: DiscoveryContext): ProductEntry[] {
  return ctx.content.products.filter((product) => product.data.published);
}

/** `/api/v1/products`: live, because each checkout_url follows the store switch and the payment provider. */
export function productIndexDocument(ctx: DiscoveryContext, state: ServiceState, category?: string): ProductIndex {
  return {
    data: publishedProducts(ctx)
      .filter((product) => category === undefined || product.data.category === category)
      .map((product) => publicProduct(product, ctx, state)),
  };
}

export function storeArtifacts(ctx: BuildContext): Artifact[] {
  const products = publishedProducts(ctx);
  const categories = ctx.content.categories
    .map((category) => ({
      ...category,
      product_count: products.filter((product) => product.data.category === category.id).length,
    }))
    .filter((category) => category.product_count > 0);
  return [
    {
      ...jsonArtifact("/api/v1/products", productIndexDocument(ctx, fullyAvailableState(ctx.builtAt)), "live"),
      live: true,
    },
    jsonArtifact("/api/v1/store/categories", { data: categories }, "docs"),
  ];
}
