import type { ProductEntry } from "../../content/model.ts";
import type { PublicProduct } from "../../schemas/product.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, jsonArtifact } from "./artifact.ts";

export function publicProduct(product: ProductEntry, ctx: BuildContext): PublicProduct {
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
    checkout_url: absolute(ctx.siteUrl, paths.productCheckout(product.id)),
    url: absolute(ctx.docsUrl, paths.product(product.id)),
  };
}

export function publishedProducts(ctx: BuildContext): ProductEntry[] {
  return ctx.content.products.filter((product) => product.data.published);
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
    jsonArtifact("/api/v1/products", { data: products.map((product) => publicProduct(product, ctx)) }, "docs"),
    jsonArtifact("/api/v1/store/categories", { data: categories }, "docs"),
  ];
}
