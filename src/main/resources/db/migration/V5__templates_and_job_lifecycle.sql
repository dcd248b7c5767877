-- Templates: parameterised job specs, built-in or saved by users, versioned. A job records the version it came from.
CREATE TABLE job_templates (
    id          BIGSERIAL PRIMARY KEY,
    public_id   TEXT NOT NULL UNIQUE,
    builtin     BOOLEAN NOT NULL DEFAULT FALSE,
    owner_id    BIGINT REFERENCES users (id) ON DELETE SET NULL,
    visibility  TEXT NOT NULL CHECK (visibility IN ('private', 'account', 'public')),
    account_id  BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    deleted_at  TIMESTAMPTZ,
    CHECK ((visibility = 'account') = (account_id IS NOT NULL))
);
CREATE INDEX job_templates_owner ON job_templates (owner_id) WHERE deleted_at IS NULL;
CREATE INDEX job_templates_account ON job_templates (account_id) WHERE deleted_at IS NULL;

CREATE TABLE job_template_versions (
    template_id BIGINT NOT NULL REFERENCES job_templates (id) ON DELETE CASCADE,
    version     INTEGER NOT NULL,
    name        TEXT NOT NULL,
    description TEXT NOT NULL,
    kind        TEXT NOT NULL,
    parameters  JSONB NOT NULL,
    spec        JSONB NOT NULL,
    digest      TEXT NOT NULL,
    created_by  BIGINT REFERENCES users (id) ON DELETE SET NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (template_id, version)
);

ALTER TABLE jobs ADD COLUMN template_id BIGINT REFERENCES job_templates (id);
ALTER TABLE jobs ADD COLUMN template_version INTEGER;
ALTER TABLE jobs ADD COLUMN source_job_id BIGINT REFERENCES jobs (id);
ALTER TABLE jobs ADD COLUMN deleted_at TIMESTAMPTZ;

-- The job list stays an index walk at any size: newest first per account, per state, per owner.
DROP INDEX jobs_account_state;
CREATE INDEX jobs_account_state_id ON jobs (account_id, state, id DESC);
CREATE INDEX jobs_account_state_kind_id ON jobs (account_id, state, kind, id DESC);
CREATE INDEX jobs_account_kind_id ON jobs (account_id, kind, id DESC);
CREATE INDEX jobs_account_user_id ON jobs (account_id, user_id, id DESC);
CREATE INDEX jobs_user_id ON jobs (user_id, id DESC);
CREATE INDEX jobs_state_id ON jobs (state, id DESC);
CREATE INDEX jobs_kind_id ON jobs (kind, id DESC);
CREATE INDEX jobs_active ON jobs (state) WHERE state IN ('Admitted', 'Pending', 'Running', 'Stopping');

-- Kubernetes events about a job's objects, kept when the job ends.
CREATE TABLE job_events (
    id       BIGSERIAL PRIMARY KEY,
    job_id   BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    at       TIMESTAMPTZ NOT NULL,
    type     TEXT NOT NULL,
    reason   TEXT NOT NULL,
    object   TEXT NOT NULL,
    message  TEXT NOT NULL,
    count    INTEGER NOT NULL,
    UNIQUE (job_id, object, reason, message)
);

-- Per-account time limits (NULL: the platform's setting).
ALTER TABLE accounts ADD COLUMN interactive_default_limit_s BIGINT CHECK (interactive_default_limit_s > 0);
ALTER TABLE accounts ADD COLUMN interactive_max_limit_s BIGINT CHECK (interactive_max_limit_s > 0);
ALTER TABLE accounts ADD COLUMN batch_default_limit_s BIGINT CHECK (batch_default_limit_s > 0);
ALTER TABLE accounts ADD COLUMN batch_max_limit_s BIGINT CHECK (batch_max_limit_s > 0);

-- Every replica learns of job changes and membership changes at commit, whichever path wrote them.
CREATE FUNCTION crater_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('crater_jobs', NEW.public_id);
    RETURN NULL;
END
$$;
CREATE TRIGGER jobs_changed_insert AFTER INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION crater_job_changed();
CREATE TRIGGER jobs_changed_update AFTER UPDATE ON jobs FOR EACH ROW
    WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.reasons IS DISTINCT FROM NEW.reasons
          OR OLD.borrowing IS DISTINCT FROM NEW.borrowing OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
    EXECUTE FUNCTION crater_job_changed();

CREATE FUNCTION crater_membership_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('crater_members', 'DELETE:' || OLD.user_id || ':' || OLD.account_id);
    ELSE
        PERFORM pg_notify('crater_members', TG_OP || ':' || NEW.user_id || ':' || NEW.account_id);
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER account_members_changed AFTER INSERT OR UPDATE OR DELETE ON account_members
    FOR EACH ROW EXECUTE FUNCTION crater_membership_changed();
