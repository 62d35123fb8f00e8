import type { ProductEntry } from "../../content/model.ts";
import { productCover } from "../product-cover.ts";
import { checkoutPolicies, productFacts } from "../product-facts.ts";
import { absolute, paths } from "../urls.ts";
import { type Artifact, type BuildContext, TYPES } from "./artifact.ts";
import { publishedProducts } from "./store.ts";

/** A product page as Markdown: the same facts, contents and preview a person sees, and how an agent buys. */
export function productMarkdown(product: ProductEntry, ctx: BuildContext): string {
  const { data } = product;
  const sample = product.download?.sample;
  const lines = [`# ${data.title}`, "", `> ${data.description}`, ""];
  lines.push(...productFacts(product).map((fact) => `- **${fact.label}**: ${fact.value}`), "");
  lines.push(product.body.trim(), "");
  if (data.contents) {
    lines.push(`## ${data.kind === "item" ? "What is in it" : "What you get"}`, "");
    lines.push(...data.contents.map((line) => `- ${line}`), "");
  }
  if (sample) {
    // A fence longer than any backtick run in the excerpt, so the sample cannot close it.
    const fence = "`".repeat(Math.max(3, ...[...sample.text.matchAll(/`+/g)].map((run) => run[0].length + 1)));
    lines.push("## Preview", "", `Lines ${sample.firstLine} to ${sample.lastLine} of the file:`, "");
    lines.push(fence, sample.text, fence, "");
  }
  lines.push("## Buy", "");
  lines.push(
    data.on_sale
      ? `POST ${absolute(ctx.siteUrl, paths.productCheckout(product.id))} (optional body \`{"email": "…"}\`) answers the hosted checkout page to send the buyer to; see ${absolute(ctx.docsUrl, paths.docMarkdown("store"))}.`
      : "Not on sale right now: checkout answers 409 `not-on-sale`.",
  );
  const policies = checkoutPolicies(ctx.content).map(
    (policy) => `[${policy.data.title}](${absolute(ctx.docsUrl, paths.policyMarkdown(policy.slug))})`,
  );
  if (policies.length > 0) lines.push("", `Buying means agreeing to: ${policies.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}

/** The Markdown twin of every product page (`/store/{id}.md`) and its cover (`/store/covers/{id}.svg`). */
export function productPageArtifacts(ctx: BuildContext): Artifact[] {
  return publishedProducts(ctx).flatMap((product): Artifact[] => {
    const category = ctx.content.categories.find((candidate) => candidate.id === product.data.category);
    const cover = productCover({
      id: product.id,
      title: product.data.title,
      categoryId: product.data.category,
      categoryTitle: category?.title ?? product.data.category,
    });
    return [
      {
        url: paths.productMarkdown(product.id),
        body: productMarkdown(product, ctx),
        type: TYPES.markdown,
        cache: "docs",
      },
      { url: paths.productCover(product.id), body: cover, type: TYPES.svg, cache: "page" },
    ];
  });
}
