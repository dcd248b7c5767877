-- Datasets and models: catalogue entries pointing at a folder or file in one of the file spaces, mounted read-only
-- into jobs. A name is unique per owner and kind; `tags` holds the tags between commas (',a,b,'), so one tag is
-- found with position() and no wildcard.
CREATE TABLE assets (
    id           BIGSERIAL PRIMARY KEY,
    public_id    TEXT NOT NULL UNIQUE,
    kind         TEXT NOT NULL CHECK (kind IN ('dataset', 'model')),
    name         TEXT NOT NULL,
    owner_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    description  TEXT NOT NULL DEFAULT '',
    space        TEXT NOT NULL,
    path         TEXT NOT NULL,
    target_type  TEXT NOT NULL CHECK (target_type IN ('folder', 'file')),
    size_bytes   BIGINT NOT NULL,
    file_count   BIGINT NOT NULL,
    measured_at  TIMESTAMPTZ NOT NULL,
    licence      TEXT NOT NULL DEFAULT '',
    source       TEXT NOT NULL DEFAULT '',
    revision     TEXT NOT NULL DEFAULT '',
    visibility   TEXT NOT NULL CHECK (visibility IN ('private', 'account', 'public')),
    account_id   BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    tags         TEXT NOT NULL DEFAULT ',',
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT assets_owner_name UNIQUE (owner_id, kind, name),
    CONSTRAINT assets_account_shared CHECK ((visibility = 'account') = (account_id IS NOT NULL))
);
CREATE INDEX assets_account ON assets (account_id, id) WHERE account_id IS NOT NULL;
CREATE INDEX assets_public ON assets (id) WHERE visibility = 'public';

-- Which entries a job mounts, where: written with the job, read to build its pods and its view, and to refuse
-- deleting an entry a job that has not ended still mounts. The entry's kind and name are kept, so the job's view
-- still names an entry deleted after the job ended.
CREATE TABLE asset_mounts (
    job_id      BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    mount_path  TEXT NOT NULL,
    asset_id    BIGINT REFERENCES assets (id) ON DELETE SET NULL,
    kind        TEXT NOT NULL,
    name        TEXT NOT NULL,
    PRIMARY KEY (job_id, mount_path)
);
CREATE INDEX asset_mounts_asset ON asset_mounts (asset_id) WHERE asset_id IS NOT NULL;
