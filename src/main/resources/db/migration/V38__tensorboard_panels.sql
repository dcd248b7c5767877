-- TensorBoard panels (docs/assets.md, "TensorBoard panels"): a person's panel names the log folders it shows; each
-- start runs it as a job of kind tensorboard (job_id: the latest, whose account the panel's jobs use). Deleting a panel never touches the folders.
CREATE TABLE tensorboards (
    id             BIGSERIAL PRIMARY KEY,
    public_id      TEXT NOT NULL UNIQUE,
    user_id        BIGINT NOT NULL REFERENCES users (id),
    name           TEXT NOT NULL,
    job_id         BIGINT REFERENCES jobs (id),
    stopped_reason TEXT,
    stopped_at     TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    deleted_at     TIMESTAMPTZ
);
CREATE UNIQUE INDEX tensorboards_owner_name ON tensorboards (user_id, name) WHERE deleted_at IS NULL;
CREATE INDEX tensorboards_job ON tensorboards (job_id);

-- Each log folder of a panel, in order (mounted read-only at /logs/<position>): where it was named from (a space and
-- path, or a job's working directory) and its place on the shared claim.
CREATE TABLE tensorboard_sources (
    tensorboard_id BIGINT NOT NULL REFERENCES tensorboards (id),
    position       INT NOT NULL,
    name           TEXT NOT NULL,
    space          TEXT NOT NULL,
    path           TEXT NOT NULL,
    job_public_id  TEXT,
    claim_path     TEXT NOT NULL,
    PRIMARY KEY (tensorboard_id, position)
);

-- The last request the app proxy passed to each job's app, written in batches (docs/interactive.md).
CREATE TABLE app_activity (
    job_public_id   TEXT PRIMARY KEY,
    last_request_at TIMESTAMPTZ NOT NULL
);
