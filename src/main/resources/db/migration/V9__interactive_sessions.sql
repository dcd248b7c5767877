-- Terminal and SSH sessions into running jobs: who, which job and pod, when, and how many bytes went each way.
CREATE TABLE interactive_sessions (
    id            BIGSERIAL PRIMARY KEY,
    channel       TEXT NOT NULL CHECK (channel IN ('terminal', 'ssh')),
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    job_public_id TEXT NOT NULL,
    pod           TEXT NOT NULL,
    client        TEXT,
    as_admin      BOOLEAN NOT NULL DEFAULT FALSE,
    started_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    ended_at      TIMESTAMPTZ,
    bytes_in      BIGINT NOT NULL DEFAULT 0,
    bytes_out     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX interactive_sessions_user ON interactive_sessions (user_id, started_at DESC);
CREATE INDEX interactive_sessions_job ON interactive_sessions (job_public_id);

-- The SSH gateway's host key, generated once, so every replica presents the same one.
CREATE TABLE ssh_host_keys (
    algorithm   TEXT PRIMARY KEY,
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
