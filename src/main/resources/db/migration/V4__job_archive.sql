-- What a job left behind, kept when its pods are gone: each container's end and the tail of its log.
CREATE TABLE job_archives (
    id          BIGSERIAL PRIMARY KEY,
    job_id      BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    pod         TEXT NOT NULL,
    container   TEXT NOT NULL,
    exit_code   INTEGER,
    reason      TEXT,
    message     TEXT,
    log_tail    TEXT NOT NULL,
    archived_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (job_id, pod, container)
);
