import { z } from "zod";
import { formatMoney } from "../../src/lib/money.ts";
import type { Sql } from "../db/sql.ts";
import { composeMail as compose, mailDay as day } from "../mail/compose.ts";
import type { MailTemplate } from "../mail/outbox.ts";
import type { LookupKeys } from "../platform/credentials/lookup-keys.ts";
import type { StoreCatalogue } from "./catalogue.ts";
import type { StoreDownloads } from "./downloads.ts";
import { isEntitlementActive } from "./sql/entitlements.ts";
import { findOrder } from "./sql/orders.ts";

export interface StoreMailDeps {
  db: () => Sql;
  now: () => Date;
  /** Opens the purchase page's session id sealed in the payload. */
  keys: LookupKeys;
  catalogue: StoreCatalogue;
  downloads: StoreDownloads;
  siteUrl: string;
  serviceName: string;
  contactEmail: string;
}

const OrderPayload = z.object({
  order_id: z.string(),
  sealed: z.object({ session: z.string().optional() }).optional(),
});

/**
 * The store's e-mails, rendered when sent. The delivery e-mail carries a signed download link
 * valid 7 days from sending and the entitlement's end date; a fee's e-mail is a receipt. Both are
 * cancelled if the purchase was refunded or disputed before they went.
 */
export function storeMailTemplates(deps: StoreMailDeps): Record<string, MailTemplate> {
  const signature = `${deps.serviceName} · ${deps.siteUrl} · questions: ${deps.contactEmail}`;

  const delivery: MailTemplate = async (payload, sentAt) => {
    const { order_id, sealed } = OrderPayload.parse(payload);
    const order = await findOrder(deps.db(), order_id);
    const entitlement = order?.entitlement;
    const product = order ? deps.catalogue.any(order.product_id) : undefined;
    if (!order || !entitlement || !product || !isEntitlementActive(entitlement, sentAt)) return null;
    const title = product.data.title;
    // The page's address is the session id, which the database keeps only sealed in this row.
    const sessionId = sealed?.session ? deps.keys.open(sealed.session) : null;
    const purchasePage = sessionId ? `${deps.siteUrl}/store/return?session_id=${sessionId}` : null;
    const paid = `You paid ${formatMoney({ amount: order.amount, currency: order.currency })} (order ${order.id}).`;
    if (!product.data.file) {
      return compose(
        `Your receipt: ${title}`,
        [
          { text: `Thank you for paying for ${title}. ${paid}` },
          { text: "We will write to you from this address to arrange the work." },
          ...(purchasePage
            ? [{ text: "Your purchase page:", link: { label: "Open your purchase", url: purchasePage } }]
            : []),
        ],
        signature,
      );
    }
    const link = deps.downloads.linkFor(entitlement.id, sentAt);
    return compose(
      `Your download: ${title}`,
      [
        { text: `Thank you for buying ${title}. ${paid}` },
        {
          text: `Download it here (this link works until ${day(link.expiresAt.toISOString())}, as often as you like):`,
          link: { label: `Download ${title}`, url: link.url },
        },
        purchasePage
          ? {
              text: `Your downloads stay available until ${day(entitlement.expires_at)}. After the link expires, download from your purchase page:`,
              link: { label: "Open your purchase", url: purchasePage },
            }
          : {
              text: `Your downloads stay available until ${day(entitlement.expires_at)}. After the link expires, reply to this e-mail for a new one.`,
            },
        { text: "Keep this e-mail private: the links in it are your access to the file." },
      ],
      signature,
    );
  };

  const soldOutRefund: MailTemplate = async (payload) => {
    const { order_id } = OrderPayload.parse(payload);
    const order = await findOrder(deps.db(), order_id);
    const product = order ? deps.catalogue.any(order.product_id) : undefined;
    if (order?.outcome !== "sold-out") return null;
    const title = product?.data.title ?? order.product_id;
    return compose(
      `Refunded: ${title} sold out`,
      [
        { text: `The last copy of ${title} went to another buyer moments before your payment completed.` },
        {
          text: `We have refunded your payment of ${formatMoney({ amount: order.amount, currency: order.currency })} in full (order ${order.id}). It usually reaches your account within 5 to 10 working days.`,
        },
        {
          text: "Our refund policy explains this rule:",
          link: { label: "Refund policy", url: `${deps.siteUrl}/policies/refunds` },
        },
      ],
      signature,
    );
  };

  return { "store-delivery": delivery, "store-sold-out-refund": soldOutRefund };
}
