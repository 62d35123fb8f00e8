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
