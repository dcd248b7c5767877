-- Image builds: an image built from a base and packages, or from a Dockerfile, by a job of kind `imagebuild` that
-- pushes it to `destination`. The job is named by its public id (the job feature owns its rows). `state` moves
-- building → pushed (the job succeeded; the registry is asked next) → succeeded (in the catalogue as `image_id`),
-- or to failed / stopped with the reason, its detail and the builder's last log lines.
CREATE TABLE image_builds (
    id             BIGSERIAL PRIMARY KEY,
    public_id      TEXT NOT NULL UNIQUE,
    owner_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id     BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    job_public_id  TEXT NOT NULL UNIQUE,
    source         TEXT NOT NULL CHECK (source IN ('packages', 'dockerfile')),
    base           TEXT,
    pip            TEXT NOT NULL DEFAULT ',',
    apt            TEXT NOT NULL DEFAULT ',',
    dockerfile     TEXT NOT NULL,
    destination    TEXT NOT NULL,
    registry_host  TEXT NOT NULL,
    plain_http     BOOLEAN NOT NULL,
    credential     TEXT,
    builder        TEXT NOT NULL CHECK (builder IN ('buildkit', 'kaniko')),
    description    TEXT NOT NULL DEFAULT '',
    cuda_version   TEXT NOT NULL DEFAULT '',
    kinds          TEXT NOT NULL DEFAULT ',',
    vendors        TEXT NOT NULL DEFAULT ',',
    state          TEXT NOT NULL CHECK (state IN ('building', 'pushed', 'succeeded', 'failed', 'stopped')),
    reason         TEXT,
    detail         TEXT,
    log_tail       TEXT,
    image_id       BIGINT REFERENCES images (id) ON DELETE SET NULL,
    digest         TEXT,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at    TIMESTAMPTZ
);
CREATE INDEX image_builds_owner ON image_builds (owner_id, id);
CREATE INDEX image_builds_open ON image_builds (id) WHERE state IN ('building', 'pushed');
