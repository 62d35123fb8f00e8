-- The monitors' mail rules read the outbox by recipient: at most a few requested e-mails a day to one
-- address, and no more mail to an address that refused the last few for good (content/docs/monitoring.md).
CREATE INDEX mail_outbox_by_recipient ON mail_outbox (recipient, kind, created_at);
