-- File spaces (docs/storage.md): what was deleted into each space's trash, and the quotas platform admins set on
-- accounts' spaces over the configured defaults. The files themselves live on the shared claim, not here.
CREATE TABLE file_trash (
    id            BIGSERIAL PRIMARY KEY,
    space         TEXT NOT NULL,
    original_path TEXT NOT NULL,
    is_folder     BOOLEAN NOT NULL,
    bytes         BIGINT NOT NULL,
    files         BIGINT NOT NULL,
    deleted_by    BIGINT,
    deleted_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX file_trash_space ON file_trash (space, deleted_at DESC);
CREATE INDEX file_trash_deleted_at ON file_trash (deleted_at);

CREATE TABLE file_quotas (
    space      TEXT PRIMARY KEY,
    max_bytes  BIGINT NOT NULL CHECK (max_bytes >= -1),
    max_files  BIGINT NOT NULL CHECK (max_files >= -1),
    set_by     BIGINT,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
