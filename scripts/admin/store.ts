import { defineCommand } from "citty";
import { listOutbox } from "../../api/mail/outbox-sql.ts";
import { extendEntitlement, restoreEntitlement, revokeEntitlementByStaff } from "../../api/store/sql/entitlements.ts";
import { DELIVERY_STATES, listOrders, type OrderRecord } from "../../api/store/sql/orders.ts";
import { findOrderByReference, resendDeliveryMail } from "../../api/store/staff.ts";
import { formatMoney } from "../../src/lib/money.ts";
import { AdminError, printRows, withDatabase } from "./context.ts";
import { say, sayJson } from "./terminal.ts";

const json = { type: "boolean", description: "Print JSON" } as const;

function orderRow(order: OrderRecord): Record<string, unknown> {
  return {
    id: order.id,
    product: order.product_id,
    quantity: order.quantity,
    amount: formatMoney({ amount: order.amount, currency: order.currency }),
    state: order.state,
    email: order.email,
    entitlement: order.entitlement?.id ?? null,
    ends: order.entitlement?.expires_at ?? null,
    created_at: order.created_at,
  };
}

const ordersCommand = defineCommand({
  meta: { name: "orders", description: "Store orders: list, show one, resend its delivery e-mail." },
  subCommands: {
    list: defineCommand({
      meta: { name: "list", description: "The latest orders, newest first." },
      args: {
        state: { type: "string", description: `Only this delivery state: ${DELIVERY_STATES.join(", ")}` },
        limit: { type: "string", description: "How many", default: "50" },
        json,
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const state = DELIVERY_STATES.find((candidate) => candidate === args.state);
          if (args.state && !state)
            throw new AdminError(`Unknown state ${args.state}; states: ${DELIVERY_STATES.join(", ")}`);
          const orders = await listOrders(client, { limit: Number(args.limit) || 50, ...(state ? { state } : {}) });
          if (args.json) sayJson(orders);
          else printRows(orders.map(orderRow), false);
        }),
    }),
    show: defineCommand({
      meta: { name: "show", description: "One order (by ord_… or cs_… id) with its entitlement and e-mails." },
      args: { order: { type: "positional", description: "Order id or checkout session id", required: true }, json },
      run: ({ args }) =>
        withDatabase(async ({ client, lookupKeys }) => {
          const order = await findOrderByReference(client, await lookupKeys(), args.order);
          if (!order) throw new AdminError(`No order ${args.order}`);
          const mail = (await listOutbox(client, { limit: 500 }))
            .filter((row) => row.payload.order_id === order.id)
            .map(({ payload: _payload, ...row }) => row);
          if (args.json) {
            sayJson({ ...order, mail });
            return;
          }
          for (const [key, value] of Object.entries({
            ...orderRow(order),
            payment: order.payment_intent_id,
            provider_status: `${order.checkout_status}/${order.payment_status}`,
            outcome: order.outcome,
            refund: order.refund_id,
            revoked: order.entitlement?.revoked_at
              ? `${order.entitlement.revoked_at} (${order.entitlement.revoke_reason})`
              : null,
          })) {
            say(`${`${key}:`.padEnd(17)}${value ?? "-"}`);
          }
          say("\nE-mails:");
          printRows(
            mail.map((row) => ({
              id: row.id,
              kind: row.kind,
              to: row.recipient,
              state: row.state,
              attempts: row.attempts,
              sent_at: row.sent_at,
            })),
            false,
          );
        }),
    }),
    resend: defineCommand({
      meta: { name: "resend", description: "Queue the delivery e-mail again, with a fresh 7-day link." },
      args: {
        order: { type: "positional", description: "Order id or checkout session id", required: true },
        to: { type: "string", description: "Send to this address instead of the buyer's" },
      },
      run: ({ args }) =>
        withDatabase(async ({ client, lookupKeys }) => {
          const keys = await lookupKeys();
          const order = await findOrderByReference(client, keys, args.order);
          if (!order) throw new AdminError(`No order ${args.order}`);
          // Named by its session id, the order's purchase page can be linked again (the database keeps only a hash).
          const sealedSession = args.order.startsWith("cs_") ? keys.seal(args.order) : null;
          const outcome = await resendDeliveryMail(client, order, args.to ?? null, new Date(), sealedSession);
          if (!outcome.ok) throw new AdminError(outcome.reason);
          say(`Queued ${outcome.mailId} to ${outcome.recipient}.`);
          if (!sealedSession)
            say(
              "It carries a fresh download link; to link the purchase page too, name the order by its checkout session id (cs_…).",
            );
        }),
    }),
  },
});

const entitlementsCommand = defineCommand({
  meta: { name: "entitlements", description: "Download entitlements: extend, revoke, restore." },
  subCommands: {
    extend: defineCommand({
      meta: { name: "extend", description: "Add days after the later of its end and now." },
      args: {
        entitlement: { type: "positional", description: "ent_… id", required: true },
        days: { type: "string", description: "Days to add (1 to 3650)", required: true },
      },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          const days = Number(args.days);
          if (!Number.isInteger(days) || days < 1 || days > 3650)
            throw new AdminError("--days must be a whole number from 1 to 3650");
          const extended = await extendEntitlement(client, args.entitlement, days, new Date().toISOString());
          if (!extended) throw new AdminError(`No entitlement ${args.entitlement}`);
          say(`${extended.id} now ends at ${extended.expires_at}.`);
        }),
    }),
    revoke: defineCommand({
      meta: { name: "revoke", description: "End an entitlement now: downloads and e-mailed links answer 410." },
      args: { entitlement: { type: "positional", description: "ent_… id", required: true } },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          if (!(await revokeEntitlementByStaff(client, args.entitlement, new Date().toISOString())))
            throw new AdminError(`No active entitlement ${args.entitlement}`);
          say(`Revoked ${args.entitlement}.`);
        }),
    }),
    restore: defineCommand({
      meta: {
        name: "restore",
        description:
          "Give back a revoked entitlement (e.g. a dispute decided for the buyer); its end date is unchanged.",
      },
      args: { entitlement: { type: "positional", description: "ent_… id", required: true } },
      run: ({ args }) =>
        withDatabase(async ({ client }) => {
          if (!(await restoreEntitlement(client, args.entitlement, new Date().toISOString())))
            throw new AdminError(`No revoked entitlement ${args.entitlement}`);
          say(`Restored ${args.entitlement}.`);
        }),
    }),
  },
});

export const storeCommands = { orders: ordersCommand, entitlements: entitlementsCommand };
