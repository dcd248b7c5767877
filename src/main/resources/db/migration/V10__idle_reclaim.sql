-- Idle GPU reclamation of interactive jobs: when the owner was warned that the job's accelerators are idle
-- (cleared when it is busy again), and what each stop for idleness freed.
ALTER TABLE jobs ADD COLUMN idle_warned_at TIMESTAMPTZ;
CREATE INDEX jobs_running_interactive ON jobs (id) WHERE state = 'Running' AND interactive;

CREATE TABLE idle_reclaims (
    id           BIGSERIAL PRIMARY KEY,
    job_id       BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    account_id   BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    model        TEXT NOT NULL,
    accelerators INTEGER NOT NULL,
    idle_since   TIMESTAMPTZ NOT NULL,
    stopped_at   TIMESTAMPTZ NOT NULL,
    -- accelerators x the hours of its time limit the stop freed (docs/interactive.md)
    gpu_hours    NUMERIC(14, 3) NOT NULL,
    UNIQUE (job_id)
);
CREATE INDEX idle_reclaims_account ON idle_reclaims (account_id, stopped_at DESC);

-- An approved job lock exempts its job: the check looks them up per running interactive job.
CREATE INDEX approvals_job_locks ON approvals (job_public_id, until) WHERE kind = 'job-lock' AND state = 'approved';
