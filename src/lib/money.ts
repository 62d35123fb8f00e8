import type { Money } from "../schemas/common.ts";

/** `{amount: 1900, currency: "eur"}` → `€19.00`. */
export function formatMoney(money: Money): string {
  return new Intl.NumberFormat("en", { style: "currency", currency: money.currency.toUpperCase() }).format(
    money.amount / 100,
  );
}
