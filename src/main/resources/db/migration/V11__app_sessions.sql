-- The app origin's sign-in: a one-time ticket minted on the API origin (POST /api/v1/jobs/{id}/open), exchanged on
-- the job's app origin for a session cookie valid there only. Only hashes are stored.
CREATE TABLE app_tickets (
    token_hash    TEXT PRIMARY KEY,
    job_public_id TEXT NOT NULL,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    as_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    path          TEXT NOT NULL DEFAULT '/',
    expires_at    TIMESTAMPTZ NOT NULL,
    used_at       TIMESTAMPTZ
);

CREATE TABLE app_sessions (
    token_hash    TEXT PRIMARY KEY,
    job_public_id TEXT NOT NULL,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    as_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX app_sessions_job ON app_sessions (job_public_id);
