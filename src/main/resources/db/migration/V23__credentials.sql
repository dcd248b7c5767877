-- Credentials: secrets a user stores by name, write-only, for jobs to reference. The value is kept only sealed
-- (AES-256-GCM under the server's credentials key, bound to its owner and name); the other columns are what
-- the API lists.
CREATE TABLE credentials (
    id            BIGSERIAL PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    kind          TEXT NOT NULL,
    host          TEXT,
    username      TEXT,
    description   TEXT,
    sealed_value  TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_used_at  TIMESTAMPTZ,
    CONSTRAINT credentials_owner_name UNIQUE (user_id, name)
);
