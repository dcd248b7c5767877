-- Governance: accounts, members, quotas, member limits, approvals, tokens, keys, notifications, audit.

CREATE SEQUENCE crater_gid_seq START WITH 200000;

CREATE TABLE accounts (
    id          BIGSERIAL PRIMARY KEY,
    slug        TEXT NOT NULL UNIQUE,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('personal', 'team')),
    gid         INTEGER NOT NULL UNIQUE DEFAULT nextval('crater_gid_seq'),
    expires_at  TIMESTAMPTZ,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

ALTER TABLE users ADD COLUMN default_account_id BIGINT REFERENCES accounts (id);

CREATE TABLE account_members (
    account_id  BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role        TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    file_access TEXT NOT NULL DEFAULT 'rw' CHECK (file_access IN ('rw', 'ro')),
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, user_id)
);
CREATE INDEX account_members_user ON account_members (user_id);

-- Per account and resource (cpu, memory, or an accelerator model key), in milli-units.
CREATE TABLE quotas (
    account_id       BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    resource         TEXT NOT NULL,
    guaranteed_milli BIGINT NOT NULL CHECK (guaranteed_milli >= 0),
    max_milli        BIGINT NOT NULL CHECK (max_milli >= guaranteed_milli),
    PRIMARY KEY (account_id, resource)
);

-- Member limits: user_id NULL is the account's default for every member; a row per user overrides it.
CREATE TABLE member_limits (
    id                       BIGSERIAL PRIMARY KEY,
    account_id               BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    user_id                  BIGINT REFERENCES users (id) ON DELETE CASCADE,
    max_running_jobs         INTEGER CHECK (max_running_jobs >= 0),
    max_interactive_sessions INTEGER CHECK (max_interactive_sessions >= 0)
);
CREATE UNIQUE INDEX member_limits_one ON member_limits (account_id, COALESCE(user_id, 0));

CREATE TABLE member_limit_resources (
    limit_id   BIGINT NOT NULL REFERENCES member_limits (id) ON DELETE CASCADE,
    resource   TEXT NOT NULL,
    max_milli  BIGINT NOT NULL CHECK (max_milli >= 0),
    PRIMARY KEY (limit_id, resource)
);

ALTER TABLE accelerator_models ADD COLUMN restricted BOOLEAN NOT NULL DEFAULT FALSE;

-- Jobs as far as governance needs them: who, which account, which state, what they request.
-- Usage is always derived from these rows (states Admitted, Pending, Running, Stopping).
CREATE TABLE jobs (
    id           BIGSERIAL PRIMARY KEY,
    public_id    TEXT NOT NULL UNIQUE,
    account_id   BIGINT NOT NULL REFERENCES accounts (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    name         TEXT NOT NULL,
    kind         TEXT NOT NULL,
    interactive  BOOLEAN NOT NULL DEFAULT FALSE,
    state        TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX jobs_account_state ON jobs (account_id, state);
CREATE INDEX jobs_user_state ON jobs (user_id, state);

CREATE TABLE job_requests (
    job_id     BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    resource   TEXT NOT NULL,
    milli      BIGINT NOT NULL CHECK (milli >= 0),
    PRIMARY KEY (job_id, resource)
);

CREATE TABLE approvals (
    id           BIGSERIAL PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('quota-grant', 'job-lock', 'model-access')),
    state        TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'rejected', 'cancelled')),
    account_id   BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    requester_id BIGINT NOT NULL REFERENCES users (id),
    resource     TEXT,
    amount_milli BIGINT CHECK (amount_milli > 0),
    until        TIMESTAMPTZ,
    model        TEXT,
    job_public_id TEXT,
    reason       TEXT NOT NULL,
    reviewer_id  BIGINT REFERENCES users (id),
    comment      TEXT,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    decided_at   TIMESTAMPTZ
);
CREATE INDEX approvals_account_state ON approvals (account_id, state);
CREATE INDEX approvals_requester ON approvals (requester_id, id);

CREATE TABLE personal_access_tokens (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    prefix       TEXT NOT NULL,
    token_hash   TEXT NOT NULL UNIQUE,
    expires_at   TIMESTAMPTZ,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX personal_access_tokens_user ON personal_access_tokens (user_id);

CREATE TABLE ssh_keys (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    key_type     TEXT NOT NULL,
    public_key   TEXT NOT NULL,
    fingerprint  TEXT NOT NULL UNIQUE,
    last_used_at TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX ssh_keys_user ON ssh_keys (user_id);

CREATE TABLE notifications (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    message    TEXT NOT NULL,
    link       TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    read_at    TIMESTAMPTZ
);
CREATE INDEX notifications_user ON notifications (user_id, id DESC);

-- The audit trail: written in the transaction of the change it records, never updated or deleted.
CREATE TABLE audit_log (
    id             BIGSERIAL PRIMARY KEY,
    at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor_id       BIGINT,
    actor          TEXT NOT NULL,
    account        TEXT,
    action         TEXT NOT NULL,
    target_type    TEXT NOT NULL,
    target_id      TEXT NOT NULL,
    before         JSONB,
    after          JSONB,
    result         TEXT NOT NULL,
    client_address TEXT
);
CREATE INDEX audit_log_at ON audit_log (id DESC);
CREATE INDEX audit_log_actor ON audit_log (actor, id DESC);
CREATE INDEX audit_log_action ON audit_log (action, id DESC);
CREATE INDEX audit_log_account ON audit_log (account, id DESC);

CREATE TABLE denied_attempts (
    id             BIGSERIAL PRIMARY KEY,
    at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor          TEXT,
    method         TEXT NOT NULL,
    path           TEXT NOT NULL,
    code           TEXT NOT NULL,
    client_address TEXT
);
CREATE INDEX denied_attempts_at ON denied_attempts (id DESC);

CREATE FUNCTION crater_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION crater_append_only();
CREATE TRIGGER denied_attempts_append_only BEFORE UPDATE OR DELETE ON denied_attempts
    FOR EACH ROW EXECUTE FUNCTION crater_append_only();

-- Personal accounts for the users that exist already (the first administrator).
INSERT INTO accounts (slug, name, kind)
    SELECT 'u-' || slug, display_name, 'personal' FROM users;
INSERT INTO account_members (account_id, user_id, role)
    SELECT a.id, u.id, 'admin' FROM users u JOIN accounts a ON a.slug = 'u-' || u.slug;
UPDATE users u SET default_account_id = a.id FROM accounts a WHERE a.slug = 'u-' || u.slug;
