-- Downloads from a model hub into a file space (docs/assets.md, downloads). A download is resolved to a commit once;
-- its file list (path, size, LFS SHA-256) is kept to measure progress and verify the files at the end. Each run is
-- a job of kind download; pausing ends the run and keeps the files, resuming or retrying starts another.
CREATE TABLE downloads (
    id           BIGSERIAL PRIMARY KEY,
    public_id    TEXT NOT NULL UNIQUE,
    owner_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('dataset', 'model')),
    hub          TEXT NOT NULL,
    endpoint     TEXT NOT NULL,
    repository   TEXT NOT NULL,
    revision     TEXT NOT NULL,
    sha          TEXT NOT NULL,
    include      JSONB NOT NULL DEFAULT '[]',
    exclude      JSONB NOT NULL DEFAULT '[]',
    dedup_key    TEXT NOT NULL,
    credential   TEXT,
    name         TEXT NOT NULL,
    space        TEXT NOT NULL,
    path         TEXT NOT NULL,
    job_account  TEXT,
    visibility   TEXT NOT NULL CHECK (visibility IN ('private', 'account', 'public')),
    account_id   BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    files        JSONB NOT NULL,
    bytes_total  BIGINT NOT NULL,
    file_count   INT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('running', 'paused', 'succeeded', 'failed')),
    reason       TEXT NOT NULL DEFAULT '',
    message      TEXT NOT NULL DEFAULT '',
    warnings     JSONB NOT NULL DEFAULT '[]',
    job_id       BIGINT,
    job_public_id TEXT,
    asset_public_id TEXT,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at  TIMESTAMPTZ,
    CONSTRAINT downloads_account_shared CHECK ((visibility = 'account') = (account_id IS NOT NULL))
);
CREATE INDEX downloads_owner ON downloads (owner_id, id);
CREATE INDEX downloads_dedup ON downloads (dedup_key) WHERE state <> 'failed';
CREATE INDEX downloads_running ON downloads (id) WHERE state = 'running';

-- Every job a download started, for the per-user window limit and the download's history.
CREATE TABLE download_runs (
    download_id BIGINT NOT NULL REFERENCES downloads (id) ON DELETE CASCADE,
    job_public_id TEXT NOT NULL,
    owner_id    BIGINT NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (download_id, job_public_id)
);
CREATE INDEX download_runs_owner ON download_runs (owner_id, started_at);
