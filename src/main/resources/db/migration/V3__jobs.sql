-- Jobs: the submitted spec, admission results with their reasons, and the state history.
ALTER TABLE jobs ADD COLUMN spec JSONB NOT NULL DEFAULT '{}';
ALTER TABLE jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 1;
ALTER TABLE jobs ADD COLUMN borrowing BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE jobs ADD COLUMN reasons JSONB;
ALTER TABLE jobs ADD COLUMN state_reason TEXT;
ALTER TABLE jobs ADD COLUMN state_message TEXT;
ALTER TABLE jobs ADD COLUMN admitted_at TIMESTAMPTZ;
ALTER TABLE jobs ADD COLUMN admitted_epoch BIGINT;
ALTER TABLE jobs ADD COLUMN started_at TIMESTAMPTZ;
ALTER TABLE jobs ADD COLUMN finished_at TIMESTAMPTZ;
ALTER TABLE jobs ADD COLUMN stop_requested BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX jobs_waiting ON jobs (priority DESC, id) WHERE state = 'Queued';
CREATE INDEX jobs_account_id ON jobs (account_id, id DESC);

CREATE TABLE job_transitions (
    id         BIGSERIAL PRIMARY KEY,
    job_id     BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    from_state TEXT,
    to_state   TEXT NOT NULL,
    reason     TEXT,
    message    TEXT
);
CREATE INDEX job_transitions_job ON job_transitions (job_id, id);

-- Admission is fenced: a replica that gains the Lease raises the epoch; an admission transaction reads it
-- FOR SHARE and rolls back unless it is still its own.
CREATE TABLE leader_epochs (
    name       TEXT PRIMARY KEY,
    epoch      BIGINT NOT NULL,
    holder     TEXT,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO leader_epochs (name, epoch) VALUES ('admission', 0);
