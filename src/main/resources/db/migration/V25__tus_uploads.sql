-- Resumable uploads (tus 1.0, docs/storage.md): one row per upload still being written. The row holds the offset
-- reached, so any replica continues the upload, and the bytes reserved in its space's quota until it completes, is
-- terminated or expires. The bytes themselves are in a part file on the shared claim, not here.
CREATE TABLE tus_uploads (
    id             TEXT PRIMARY KEY,
    user_id        BIGINT NOT NULL,
    space_name     TEXT NOT NULL,
    space          TEXT NOT NULL,
    path           TEXT NOT NULL,
    overwrite      BOOLEAN NOT NULL,
    upload_length  BIGINT NOT NULL CHECK (upload_length >= 0),
    upload_offset  BIGINT NOT NULL DEFAULT 0 CHECK (upload_offset >= 0 AND upload_offset <= upload_length),
    reserved_bytes BIGINT NOT NULL,
    reserved_files BIGINT NOT NULL,
    metadata       TEXT,
    patch_token    TEXT,
    patch_since    TIMESTAMPTZ,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX tus_uploads_space ON tus_uploads (space);
CREATE INDEX tus_uploads_expires_at ON tus_uploads (expires_at);
