import type { Json } from "./fake-state.ts";

const escapeHtml = (value: unknown) => String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The hosted checkout page, as plain as the real one is not: the total, an e-mail field and two
 * buttons (pay now, or start a delayed bank payment). Works without JavaScript.
 */
export function hostedPage(session: Json): string {
  const items = session.line_items;
  const lines =
    typeof items === "object" && items !== null && "data" in items && Array.isArray(items.data) ? items.data : [];
  const total = `${(Number(session.amount_total) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
  const open = session.status === "open";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay ${escapeHtml(total)} · Fake Stripe Checkout</title></head>
<body>
<main>
<h1>Fake Stripe Checkout</h1>
<p>Test mode: nothing is charged.</p>
<ul>${lines.map((line: unknown) => (typeof line === "object" && line !== null && "description" in line && "quantity" in line ? `<li>${escapeHtml(line.quantity)} × ${escapeHtml(line.description)}</li>` : "")).join("")}</ul>
<p>Total: <strong id="total">${escapeHtml(total)}</strong></p>
${
  open
    ? `<form method="post" action="/pay/${escapeHtml(session.id)}">
<label for="email">E-mail</label>
<input id="email" name="email" type="email" value="${escapeHtml(session.customer_email ?? "buyer@example.com")}" required>
<button type="submit" name="outcome" value="pay">Pay</button>
<button type="submit" name="outcome" value="async">Pay by bank transfer (settles later)</button>
</form>
${session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Cancel and go back</a></p>` : ""}`
    : `<p role="status">This checkout is ${escapeHtml(session.status)}.</p>`
}
</main>
</body></html>`;
}

/** The receipt page a charge's `receipt_url` opens. */
export function receiptPage(charge: Json): string {
  const amount = `${(Number(charge.amount) / 100).toFixed(2)} ${String(charge.currency).toUpperCase()}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt · Fake Stripe</title></head>
<body><main>
<h1>Receipt</h1>
<p>Amount paid: <strong id="amount">${escapeHtml(amount)}</strong></p>
<p>Charge <code>${escapeHtml(charge.id)}</code>${charge.refunded === true ? " (refunded)" : ""}</p>
</main></body></html>`;
}
