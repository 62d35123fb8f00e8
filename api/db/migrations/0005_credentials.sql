-- Issue 24: nothing in the database works as a credential, and a token's revocation holds from the
-- next request on every instance.

-- A counter every change to a token's or an agent's standing moves, in the same statement (the
-- triggers below, so the staff CLI, another instance or a hand-written UPDATE cannot forget it). An
-- instance keeps token owners in memory with the epoch they were read under, reads this one row
-- every ~125 ms while it serves, and reads an owner again once a newer epoch has been read
-- (api/platform/auth/standing-epoch.ts).
CREATE TABLE agent_standing_epoch (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  epoch INTEGER NOT NULL
);
INSERT INTO agent_standing_epoch (id, epoch) VALUES (1, 0);

CREATE TRIGGER agent_tokens_standing_changed AFTER UPDATE OF revoked_at, scopes ON agent_tokens
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER agent_tokens_deleted AFTER DELETE ON agent_tokens
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER agents_standing_changed AFTER UPDATE OF trust ON agents
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER agents_deleted AFTER DELETE ON agents
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

-- A purchase's checkout session id is its credential (GET /api/v1/store/sessions/{id}/download), and
-- a report's id is its link: a copy of the database must hold neither. Rows now keep a keyed hash of
-- each (HMAC-SHA256 under the database's lookup key, api/platform/credentials/lookup-keys.ts), which
-- SQL cannot compute: this marks every existing value `legacy:`, and the server (or any staff
-- command) replaces each marked value with its hash as it opens the database, before it answers
-- anything (api/credential-rewrite.ts), sealing the ids that e-mails still waiting in the outbox
-- must show.
ALTER TABLE store_orders RENAME COLUMN session_id TO session_hash;
UPDATE store_orders SET session_hash = 'legacy:' || session_hash;

-- check_reports.id now holds the keyed hash of the report's id; the rows that name a report keep
-- the same hash. Checked at commit, so parent and children can be marked one after the other.
PRAGMA defer_foreign_keys = ON;
UPDATE credit_ledger SET report_id = 'legacy:' || report_id WHERE report_id IS NOT NULL;
UPDATE check_payments SET report_id = 'legacy:' || report_id;
UPDATE check_reports SET id = 'legacy:' || id;
