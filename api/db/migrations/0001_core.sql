-- Core tables: settings, switches, agents and their tokens, both waiting lists, the survey, and
-- rate-limit counters for several instances. Every invariant lives here as a constraint.

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE switches (
  name TEXT PRIMARY KEY,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  updated_at TEXT NOT NULL,
  updated_by TEXT NOT NULL
);

CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  agent_name TEXT NOT NULL,
  agent_type TEXT NOT NULL,
  operator_type TEXT NOT NULL CHECK (operator_type IN ('individual', 'company', 'organisation')),
  principal_contact TEXT,
  trust TEXT NOT NULL DEFAULT 'unverified' CHECK (trust IN ('unverified', 'verified', 'trusted', 'suspended')),
  registered_by TEXT NOT NULL CHECK (registered_by IN ('api', 'staff')),
  created_at TEXT NOT NULL
);

CREATE TABLE agent_tokens (
  id TEXT PRIMARY KEY,
  agent_id TEXT NOT NULL REFERENCES agents (id),
  -- SHA-256 of the whole token: the token itself is shown once and never stored.
  token_hash BLOB NOT NULL UNIQUE,
  -- The last four characters, so staff can tell tokens apart without the secret.
  hint TEXT NOT NULL,
  scopes TEXT NOT NULL,
  label TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX agent_tokens_by_agent ON agent_tokens (agent_id);

-- One entry per agent registration: the primary key makes a second entry a constraint violation,
-- whichever instance or connection tries it.
CREATE TABLE agent_waitlist_entries (
  agent_id TEXT PRIMARY KEY REFERENCES agents (id),
  id TEXT NOT NULL UNIQUE,
  agent_name TEXT NOT NULL,
  agent_type TEXT NOT NULL,
  operator_type TEXT NOT NULL,
  principal_contact TEXT,
  use_cases TEXT NOT NULL,
  capabilities TEXT NOT NULL,
  tools_used TEXT NOT NULL,
  consent_version TEXT NOT NULL,
  joined_at TEXT NOT NULL
);

CREATE TABLE agent_survey_answers (
  agent_id TEXT PRIMARY KEY REFERENCES agents (id),
  survey_version TEXT NOT NULL,
  answers TEXT NOT NULL,
  answered_at TEXT NOT NULL
);

-- People: one row per normalised e-mail address.
CREATE TABLE waitlist_signups (
  email TEXT PRIMARY KEY,
  name TEXT,
  interests TEXT NOT NULL,
  consent_version TEXT NOT NULL,
  legend_terms_version TEXT,
  legend INTEGER NOT NULL CHECK (legend IN (0, 1)),
  signed_up_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE rate_limit_counters (
  key TEXT PRIMARY KEY,
  count INTEGER NOT NULL,
  window_ends_at INTEGER NOT NULL
);
CREATE INDEX rate_limit_counters_by_end ON rate_limit_counters (window_ends_at);
