-- Users and sign-in. Usernames are unique without regard to case; each user also gets an immutable slug
-- and a numeric UID used for files and pods.
CREATE SEQUENCE crater_uid_seq START WITH 100000;

CREATE TABLE users (
    id            BIGSERIAL PRIMARY KEY,
    username      TEXT NOT NULL,
    slug          TEXT NOT NULL UNIQUE,
    uid           INTEGER NOT NULL UNIQUE DEFAULT nextval('crater_uid_seq'),
    display_name  TEXT NOT NULL,
    email         TEXT,
    role          TEXT NOT NULL CHECK (role IN ('admin', 'user')),
    password_hash TEXT,
    disabled      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_username_ci ON users (lower(username));

-- A link from a user to an identity held elsewhere (OIDC subject, LDAP DN): sign-in through them plugs in here.
CREATE TABLE external_identities (
    id        BIGSERIAL PRIMARY KEY,
    user_id   BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider  TEXT NOT NULL,
    subject   TEXT NOT NULL,
    linked_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (provider, subject)
);

-- Token signing keys. One row per key id; the active one is claimed insert-if-absent so every replica
-- agrees on it.
CREATE TABLE signing_keys (
    kid         TEXT PRIMARY KEY,
    algorithm   TEXT NOT NULL,
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL,
    active      BOOLEAN NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active;

-- Refresh tokens rotate: each use replaces the token; a replaced token used again revokes its family.
CREATE TABLE refresh_tokens (
    id          BIGSERIAL PRIMARY KEY,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    family      UUID NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,
    expires_at  TIMESTAMPTZ NOT NULL,
    used_at     TIMESTAMPTZ,
    revoked_at  TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family);

-- Failed sign-in counters per username and per client address, in fixed windows.
CREATE TABLE login_failures (
    scope        TEXT NOT NULL CHECK (scope IN ('username', 'address')),
    subject      TEXT NOT NULL,
    window_start TIMESTAMPTZ NOT NULL,
    failures     INTEGER NOT NULL,
    PRIMARY KEY (scope, subject)
);

-- The accelerator catalogue: a model is a resource name plus a node label; admins curate names and vendors.
CREATE TABLE accelerator_models (
    key          TEXT PRIMARY KEY,
    resource     TEXT NOT NULL,
    label_key    TEXT NOT NULL,
    label_value  TEXT NOT NULL,
    display_name TEXT NOT NULL,
    vendor       TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (resource, label_key, label_value)
);

INSERT INTO accelerator_models (key, resource, label_key, label_value, display_name, vendor) VALUES
    ('nvidia-a100-80gb', 'nvidia.com/gpu', 'nvidia.com/gpu.product', 'NVIDIA-A100-SXM4-80GB', 'NVIDIA A100 80GB', 'NVIDIA'),
    ('nvidia-h100-80gb', 'nvidia.com/gpu', 'nvidia.com/gpu.product', 'NVIDIA-H100-80GB-HBM3', 'NVIDIA H100 80GB', 'NVIDIA'),
    ('nvidia-rtx-4090', 'nvidia.com/gpu', 'nvidia.com/gpu.product', 'NVIDIA-GeForce-RTX-4090', 'NVIDIA GeForce RTX 4090', 'NVIDIA'),
    ('ascend-910b', 'huawei.com/Ascend910', 'node.kubernetes.io/npu.chip.name', '910B', 'Ascend 910B', 'Huawei');
