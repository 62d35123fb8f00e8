import type { Content, PolicyEntry, ProductEntry } from "../content/model.ts";
import { formatBytes } from "./format-bytes.ts";
import { formatMoney } from "./money.ts";

/** One line of what a buyer learns before paying, the same on the product page and its Markdown twin. */
export interface ProductFact {
  label: string;
  value: string;
}

/** Price, format, size, delivery and how long downloads last, in the order a buyer reads them. */
export function productFacts(product: ProductEntry): ProductFact[] {
  const { data, download } = product;
  const facts: ProductFact[] = [{ label: "Price", value: `${formatMoney(data.price)}, everything included` }];
  if (data.kind === "fee" || !download) {
    facts.push(
      { label: "What it is", value: "A fee for a service: nothing to download" },
      { label: "Confirmation", value: "By e-mail, right after payment" },
    );
  } else {
    facts.push(
      { label: "Format", value: data.format ?? data.file_type ?? "a file" },
      { label: "Size", value: formatBytes(download.bytes) },
      { label: "Delivery", value: "A download right after payment, and a link by e-mail" },
      { label: "Downloads", value: `As often as you like for ${data.entitlement_days} days after purchase` },
    );
  }
  if (data.stock !== undefined) facts.push({ label: "Copies", value: `${data.stock} put on sale` });
  if (!data.on_sale) facts.push({ label: "Availability", value: "Not on sale right now" });
  return facts;
}

/** The policies a buyer agrees to at checkout (placed at `checkout`): the refund policy among them. */
export function checkoutPolicies(content: Pick<Content, "policies">): PolicyEntry[] {
  return content.policies.filter((policy) => policy.data.placements.includes("checkout"));
}

/** A WebMCP tool name for a product's buy form: letters, digits and underscores (`buy_discovery_starter_kit`). */
export function buyToolName(productId: string): string {
  return `buy_${productId.replaceAll("-", "_")}`;
}
