-- The image catalogue: container images (a registry and repository, some tags) described for the job form, seen by
-- their owner, one account's members or everyone, and shared with named users and accounts. The lists
-- (`tags`, `architectures`, `vendors`, `kinds`) are stored between commas (',a,b,'), so one entry is found with
-- position() and no wildcard. The registry's answer to the last validation of each tag is kept in `image_checks`.
CREATE TABLE images (
    id             BIGSERIAL PRIMARY KEY,
    public_id      TEXT NOT NULL UNIQUE,
    reference      TEXT NOT NULL,
    owner_id       BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    description    TEXT NOT NULL DEFAULT '',
    tags           TEXT NOT NULL DEFAULT ',',
    cuda_version   TEXT NOT NULL DEFAULT '',
    architectures  TEXT NOT NULL DEFAULT ',',
    vendors        TEXT NOT NULL DEFAULT ',',
    kinds          TEXT NOT NULL DEFAULT ',',
    visibility     TEXT NOT NULL CHECK (visibility IN ('private', 'account', 'public')),
    account_id     BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT images_owner_reference UNIQUE (owner_id, reference),
    CONSTRAINT images_account_shared CHECK ((visibility = 'account') = (account_id IS NOT NULL))
);
CREATE INDEX images_account ON images (account_id, id) WHERE account_id IS NOT NULL;
CREATE INDEX images_public ON images (id) WHERE visibility = 'public';

-- Readers an image is shared with besides its visibility: a user, or every member of an account.
CREATE TABLE image_shares (
    image_id    BIGINT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    user_id     BIGINT REFERENCES users (id) ON DELETE CASCADE,
    account_id  BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    CONSTRAINT image_shares_one CHECK ((user_id IS NULL) <> (account_id IS NULL))
);
CREATE UNIQUE INDEX image_shares_user ON image_shares (image_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX image_shares_account ON image_shares (image_id, account_id) WHERE account_id IS NOT NULL;
CREATE INDEX image_shares_by_user ON image_shares (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX image_shares_by_account ON image_shares (account_id) WHERE account_id IS NOT NULL;

-- The last validation of each tag against its registry: ok, not-found, unauthorized or unreachable, the reason
-- shown to the user, and the digest the registry resolved the tag to.
CREATE TABLE image_checks (
    image_id    BIGINT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
    tag         TEXT NOT NULL,
    result      TEXT NOT NULL CHECK (result IN ('ok', 'not-found', 'unauthorized', 'unreachable')),
    detail      TEXT NOT NULL,
    digest      TEXT,
    media_type  TEXT,
    checked_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (image_id, tag)
);
