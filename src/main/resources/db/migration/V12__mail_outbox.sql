-- Notifications double as the e-mail outbox (docs/governance.md, "Notifications and e-mail"): a notification of a
-- mailed kind, for a user with an address, is written 'pending' in the same transaction as what caused it, and a
-- sender on any replica claims due rows (FOR UPDATE SKIP LOCKED), sends them over SMTP and records the outcome.
-- A row claimed by a replica that died is due again when its claim expires, so nothing is lost on a restart.
ALTER TABLE notifications
    ADD COLUMN mail_state    TEXT NOT NULL DEFAULT 'none'
        CHECK (mail_state IN ('none', 'pending', 'sending', 'sent', 'failed')),
    ADD COLUMN mail_attempts INT NOT NULL DEFAULT 0,
    ADD COLUMN mail_due_at   TIMESTAMPTZ,
    ADD COLUMN mail_sent_at  TIMESTAMPTZ,
    ADD COLUMN mail_error    TEXT;

CREATE INDEX notifications_mail_due ON notifications (mail_due_at) WHERE mail_state IN ('pending', 'sending');
