-- Issue 32: MCP clients sign in with OAuth. The authorization server (oidc-provider, api/oauth/) keeps
-- its state here through its adapter: clients, grants, sessions, interactions, codes and tokens.

-- One row per record of one of the library's models. The key is the SHA-256 of the record's id: for a
-- code or a token the id is the credential itself, so the database never holds one (a copy of the
-- database gives no access). The columns beside the payload are what the adapter and the staff CLI
-- look records up by.
CREATE TABLE oauth_records (
  model TEXT NOT NULL,
  id_hash BLOB NOT NULL,
  -- The library's payload as JSON; a client's secret is replaced by its SHA-256 before it is stored.
  payload TEXT NOT NULL,
  grant_id TEXT,
  session_uid TEXT,
  user_code_hash BLOB,
  -- The agent registration a grant, session or token acts for (the subject).
  account_id TEXT,
  client_id TEXT,
  -- Unix seconds; NULL: does not expire.
  expires_at INTEGER,
  consumed_at INTEGER,
  revoked_at INTEGER,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oauth_records_by_grant ON oauth_records (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oauth_records_by_session_uid ON oauth_records (session_uid) WHERE session_uid IS NOT NULL;
CREATE INDEX oauth_records_by_client ON oauth_records (client_id, model) WHERE client_id IS NOT NULL;
CREATE INDEX oauth_records_by_expiry ON oauth_records (expires_at) WHERE expires_at IS NOT NULL;

-- A revoked access or refresh token moves the agents' standing epoch (migration 0005), so every
-- instance drops the owners it keeps in memory and refuses the token from its next request.
CREATE TRIGGER oauth_tokens_revoked AFTER UPDATE OF revoked_at ON oauth_records
WHEN NEW.model IN ('AccessToken', 'RefreshToken') AND NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER oauth_tokens_deleted AFTER DELETE ON oauth_records
WHEN OLD.model = 'AccessToken' AND OLD.revoked_at IS NULL AND OLD.expires_at > unixepoch()
BEGIN
  UPDATE agent_standing_epoch SET epoch = epoch + 1 WHERE id = 1;
END;

-- Consent a person gave on the consent page, remembered per registration, client, redirect URI and
-- resource, with the scopes granted: the same request again is answered without asking. A client ID
-- metadata document whose redirect URIs changed since (its digest differs) is asked again.
CREATE TABLE oauth_consents (
  agent_id TEXT NOT NULL REFERENCES agents (id),
  client_id TEXT NOT NULL,
  redirect_uri TEXT NOT NULL,
  resource TEXT NOT NULL,
  scopes TEXT NOT NULL,
  client_redirects_digest TEXT NOT NULL,
  grant_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, client_id, redirect_uri, resource)
);
CREATE INDEX oauth_consents_by_grant ON oauth_consents (grant_id);
