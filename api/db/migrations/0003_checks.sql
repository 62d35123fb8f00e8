-- Readiness reports, credit codes and their ledger, and payments for unlocks and packs.

-- A report is addressed by its random UUID: the id is the link.
CREATE TABLE check_reports (
  id TEXT PRIMARY KEY,
  origin TEXT NOT NULL,
  input TEXT NOT NULL,
  suite_version TEXT NOT NULL,
  score INTEGER,
  level INTEGER NOT NULL,
  result TEXT NOT NULL,
  created_at TEXT NOT NULL,
  unlocked_at TEXT,
  unlock_source TEXT CHECK (unlock_source IN ('credit', 'payment', 'staff')),
  unlock_ref TEXT,
  CHECK ((unlocked_at IS NULL) = (unlock_source IS NULL))
);
CREATE INDEX check_reports_by_origin ON check_reports (origin, created_at);

-- A code is stored only as an HMAC of its normalised form; the code itself is shown once.
CREATE TABLE credit_codes (
  id TEXT PRIMARY KEY,
  code_hash TEXT NOT NULL UNIQUE,
  hint TEXT NOT NULL,
  credits_total INTEGER NOT NULL CHECK (credits_total > 0),
  credits_remaining INTEGER NOT NULL CHECK (credits_remaining >= 0 AND credits_remaining <= credits_total),
  source TEXT NOT NULL CHECK (source IN ('staff', 'payment')),
  -- The payment a pack came from: unique, so a replayed webhook can never make a second code.
  source_ref TEXT UNIQUE,
  email TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);

-- Every change to a code's credits; their sum is always the code's credits_remaining.
CREATE TABLE credit_ledger (
  id INTEGER PRIMARY KEY,
  code_id TEXT NOT NULL REFERENCES credit_codes (id),
  report_id TEXT REFERENCES check_reports (id),
  delta INTEGER NOT NULL,
  reason TEXT NOT NULL CHECK (reason IN ('issued', 'redeemed', 'revoked')),
  nonce TEXT NOT NULL UNIQUE,
  at TEXT NOT NULL
);
CREATE INDEX credit_ledger_by_code ON credit_ledger (code_id);

-- Payments started for a report: an unlock, or a pack whose first credit unlocks the report.
CREATE TABLE check_payments (
  payment_id TEXT PRIMARY KEY,
  report_id TEXT NOT NULL REFERENCES check_reports (id),
  purchase TEXT NOT NULL CHECK (purchase IN ('unlock', 'pack')),
  pack_id TEXT,
  credits INTEGER,
  email TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('created', 'succeeded', 'failed')),
  created_at TEXT NOT NULL,
  completed_at TEXT
);
CREATE INDEX check_payments_by_report ON check_payments (report_id);
