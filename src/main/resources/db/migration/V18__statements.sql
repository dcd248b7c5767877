-- Monthly statements: written once per account and month when the month is over, never changed after.
CREATE TABLE statements (
    id              BIGSERIAL PRIMARY KEY,
    account_id      BIGINT NOT NULL REFERENCES accounts (id),
    period          TEXT NOT NULL CHECK (period ~ '^[0-9]{4}-[0-9]{2}$'),
    period_start    TIMESTAMPTZ NOT NULL,
    period_end      TIMESTAMPTZ NOT NULL CHECK (period_end > period_start),
    -- The account book's balance at the start and the end, and what moved it in between, in micro-units:
    -- opening + issued + charged + adjusted + expired = closing.
    opening_micros  BIGINT NOT NULL,
    issued_micros   BIGINT NOT NULL,
    charged_micros  BIGINT NOT NULL,
    adjusted_micros BIGINT NOT NULL,
    expired_micros  BIGINT NOT NULL,
    closing_micros  BIGINT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (account_id, period)
);

-- Per member and resource: what the daily rollups held for the month when it was closed.
CREATE TABLE statement_lines (
    statement_id BIGINT NOT NULL REFERENCES statements (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    resource     TEXT NOT NULL,
    held_milli_s NUMERIC(38, 0) NOT NULL,
    measured_ms  BIGINT NOT NULL,
    used_ms      BIGINT NOT NULL,
    cost_micros  BIGINT NOT NULL,
    PRIMARY KEY (statement_id, user_id, resource)
);

-- Statements are never changed or deleted: a trigger refuses it.
CREATE FUNCTION statements_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'statements are immutable once written';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER statements_no_change BEFORE UPDATE OR DELETE ON statements
    FOR EACH ROW EXECUTE FUNCTION statements_immutable();
CREATE TRIGGER statement_lines_no_change BEFORE UPDATE OR DELETE ON statement_lines
    FOR EACH ROW EXECUTE FUNCTION statements_immutable();
