-- Notifications everywhere (docs/notifications.md): per-user preferences per kind and channel, job state notices
-- written in the transaction of the state move, and webhooks with their own durable outbox and delivery log.

-- A notification whose in-app channel is off still exists for its e-mail copy; the bell lists only in_app rows.
ALTER TABLE notifications ADD COLUMN in_app BOOLEAN NOT NULL DEFAULT TRUE;

-- A user's choices; a (kind, channel) without a row takes the default of docs/notifications.md.
CREATE TABLE notification_preferences (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('in-app', 'email', 'webhook')),
    enabled BOOLEAN NOT NULL,
    PRIMARY KEY (user_id, kind, channel)
);

-- How long a user's job may wait in the queue before they are told (job.waiting); no row: the default.
CREATE TABLE notification_thresholds (
    user_id         BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    waiting_minutes INT NOT NULL CHECK (waiting_minutes BETWEEN 1 AND 10080)
);

-- Job state moves that owe their owner a notification, written in the same transaction as the move; a worker on
-- any replica claims them (FOR UPDATE SKIP LOCKED), writes the notification and deletes the notice in one
-- transaction, so a restart loses none and none is told twice.
CREATE TABLE job_notices (
    id         BIGSERIAL PRIMARY KEY,
    job_id     BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    state      TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX job_notices_created ON job_notices (created_at);

-- When the owner was told that the job is still waiting (once per job).
ALTER TABLE jobs ADD COLUMN waiting_noticed_at TIMESTAMPTZ;
CREATE INDEX jobs_queued_unnoticed ON jobs (created_at) WHERE state = 'Queued' AND waiting_noticed_at IS NULL;

-- A webhook belongs to a user or to an account. Its URL (which may carry a vendor's token) and its signing secret
-- are sealed with the credentials key (AES-256-GCM); url_shown is the URL without its path tail and query.
CREATE TABLE webhooks (
    id            BIGSERIAL PRIMARY KEY,
    public_id     TEXT NOT NULL UNIQUE,
    user_id       BIGINT REFERENCES users (id) ON DELETE CASCADE,
    account_id    BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    url_sealed    TEXT NOT NULL,
    url_shown     TEXT NOT NULL,
    format        TEXT NOT NULL CHECK (format IN ('generic', 'slack', 'feishu', 'dingtalk')),
    kinds         TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    created_by    BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((user_id IS NULL) <> (account_id IS NULL))
);
CREATE INDEX webhooks_user ON webhooks (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX webhooks_account ON webhooks (account_id) WHERE account_id IS NOT NULL;

-- The webhook outbox: one row per event and webhook, written in the transaction of what caused it.
CREATE TABLE webhook_events (
    id         BIGSERIAL PRIMARY KEY,
    webhook_id BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    message    TEXT NOT NULL,
    link       TEXT NOT NULL DEFAULT '',
    args       JSONB,
    state      TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
    attempts   INT NOT NULL DEFAULT 0,
    due_at     TIMESTAMPTZ,
    last_error TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    sent_at    TIMESTAMPTZ
);
CREATE INDEX webhook_events_due ON webhook_events (due_at) WHERE state IN ('pending', 'sending');
CREATE INDEX webhook_events_webhook ON webhook_events (webhook_id, id);

-- Every attempt: the answer's status (null when none came), how long it took, the error and the answer's start.
CREATE TABLE webhook_deliveries (
    id          BIGSERIAL PRIMARY KEY,
    event_id    BIGINT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    webhook_id  BIGINT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    attempt     INT NOT NULL,
    status_code INT,
    latency_ms  BIGINT NOT NULL,
    error       TEXT,
    response    TEXT NOT NULL DEFAULT '',
    at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, id DESC);
