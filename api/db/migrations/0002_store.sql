-- The store: orders, the stock counter, fulfilment decisions, entitlements, refunds and disputes,
-- payment-provider events, and the e-mail outbox. Every invariant is a constraint or a single
-- statement here, so several instances against one database keep them (DESIGN §2, §6).
-- Timestamps are ISO 8601 UTC strings with milliseconds: they sort as text.

-- One order per hosted checkout session. Written after the provider created the session, or by
-- the fulfilment itself when that write was lost (the session's metadata names the order).
CREATE TABLE store_orders (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL UNIQUE,
  product_id TEXT NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 10),
  -- The total charged, in minor units, always computed from the catalogue.
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL,
  email TEXT,
  state TEXT NOT NULL CHECK (state IN ('pending', 'fulfilled', 'failed', 'expired', 'revoked', 'refunded')),
  -- The provider's own view of the session, as last seen.
  checkout_status TEXT NOT NULL,
  payment_status TEXT NOT NULL,
  payment_intent_id TEXT,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX store_orders_by_payment_intent ON store_orders (payment_intent_id);
CREATE INDEX store_orders_by_created ON store_orders (created_at);

-- Units sold of each product with limited stock. The catalogue's `stock` is the number of units
-- put on sale; the fulfilment takes a unit with one conditional UPDATE, so `sold` never passes it.
CREATE TABLE store_stock (
  product_id TEXT PRIMARY KEY,
  sold INTEGER NOT NULL DEFAULT 0 CHECK (sold >= 0)
);

-- Exactly one fulfilment decision per order: the primary key turns every repeat (webhook retries,
-- the session lookup, several instances) into a no-op. `attempt` names the call that won, so the
-- other statements of its batch can act only for that call.
CREATE TABLE store_fulfilments (
  order_id TEXT PRIMARY KEY,
  attempt TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('granted', 'sold-out')),
  decided_at TEXT NOT NULL,
  -- For `sold-out`: the automatic full refund, once the provider has accepted it.
  refund_id TEXT,
  refunded_at TEXT
);
CREATE INDEX store_fulfilments_refunds_due ON store_fulfilments (outcome, refunded_at);

-- The right to download (or, for a fee, the record of what was bought) for a while.
CREATE TABLE store_entitlements (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL UNIQUE,
  product_id TEXT NOT NULL,
  email TEXT,
  granted_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT,
  revoke_reason TEXT CHECK (revoke_reason IN ('refund', 'dispute', 'staff')),
  CHECK ((revoked_at IS NULL) = (revoke_reason IS NULL))
);

-- Refunds and disputes of an order's payment, kept even when they arrive before the fulfilment
-- (events come in any order): a later fulfilment grants the entitlement already revoked.
CREATE TABLE store_revocations (
  order_id TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('refund', 'dispute')),
  source_ref TEXT NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (order_id, reason, source_ref)
);

-- Every payment-provider event processed, recorded in the same batch as its effect.
CREATE TABLE payment_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  created INTEGER NOT NULL,
  received_at TEXT NOT NULL
);

-- E-mail waiting to be sent, written in the same batch as what it announces. The worker renders
-- the message when it sends it (a download link is valid 7 days from sending), claims rows with a
-- lease, and retries with backoff. `dedupe_key` makes a second copy of the same message impossible.
CREATE TABLE mail_outbox (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  dedupe_key TEXT NOT NULL UNIQUE,
  recipient TEXT NOT NULL,
  payload TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'sent', 'failed', 'cancelled')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  lease_until TEXT,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (state, next_attempt_at);
