-- Monitors: a site checked again daily or weekly, every run kept, an alert when it regresses
-- (content/docs/monitoring.md). Scheduling lives here too: a due monitor is claimed by one UPDATE …
-- RETURNING that sets a lease, so N instances never run one due time twice.

CREATE TABLE monitors (
  -- Internal, never shown: the public id (mon_…) is derived from it with the server secret.
  id TEXT PRIMARY KEY,
  -- SHA-256 of the public id, which is the credential to the monitor's page and history.
  key_hash TEXT NOT NULL UNIQUE,
  origin TEXT NOT NULL,
  -- The origin's host[:port], lower-case: what the badge URL names.
  host TEXT NOT NULL,
  input TEXT NOT NULL,
  -- A JSON array of profiles, or NULL to infer them on every run.
  profile TEXT,
  frequency TEXT NOT NULL CHECK (frequency IN ('daily', 'weekly')),
  -- A person's monitor has a (confirmed or pending) address; an agent's has its registration.
  email TEXT,
  agent_id TEXT REFERENCES agents (id),
  state TEXT NOT NULL CHECK (state IN ('pending', 'active', 'stopped')),
  created_at TEXT NOT NULL,
  confirmed_at TEXT,
  stopped_at TEXT,
  stop_reason TEXT,
  -- NULL while pending or stopped: nothing is scheduled.
  next_run_at TEXT,
  lease_until TEXT,
  lease_owner TEXT,
  -- How many times it was claimed: the fencing token a run's result must still match to be kept.
  claims INTEGER NOT NULL DEFAULT 0,
  CHECK ((email IS NULL) <> (agent_id IS NULL)),
  CHECK ((state = 'active') = (next_run_at IS NOT NULL))
);
-- The same address and domain twice, or the same agent and domain, is one monitor.
CREATE UNIQUE INDEX monitors_by_email_origin ON monitors (email, origin) WHERE email IS NOT NULL;
CREATE UNIQUE INDEX monitors_by_agent_origin ON monitors (agent_id, origin) WHERE agent_id IS NOT NULL;
CREATE INDEX monitors_due ON monitors (next_run_at) WHERE state = 'active';
CREATE INDEX monitors_by_host ON monitors (host, state);

CREATE TABLE monitor_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  monitor_id TEXT NOT NULL REFERENCES monitors (id),
  -- The due time answered; unique per monitor, so one due time is recorded once whoever ran it.
  scheduled_for TEXT NOT NULL,
  claim INTEGER NOT NULL,
  instance TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  outcome TEXT NOT NULL CHECK (outcome IN ('checked', 'failed')),
  reason TEXT,
  -- The report's id sealed under the lookup key (api/platform/credentials/lookup-keys.ts): it opens the
  -- full report, so the database keeps no copy that works.
  report_sealed TEXT,
  score INTEGER,
  level INTEGER,
  level_name TEXT,
  incomplete INTEGER NOT NULL CHECK (incomplete IN (0, 1)),
  suite_version TEXT,
  -- JSON: {check id: [status, message]}.
  checks TEXT NOT NULL,
  alerted INTEGER NOT NULL CHECK (alerted IN (0, 1)),
  UNIQUE (monitor_id, scheduled_for)
);
CREATE INDEX monitor_runs_by_monitor ON monitor_runs (monitor_id, seq);
