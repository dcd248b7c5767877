-- Accounting: what jobs held and when, prices, an append-only double-entry ledger, budgets and hourly rollups.

-- What a job held of one resource, from the moment it entered a holding state (Admitted, Pending, Running,
-- Stopping) to the moment it left them. Written with the job's state change; closed once, never changed after.
CREATE TABLE usage_intervals (
    id          BIGSERIAL PRIMARY KEY,
    job_id      BIGINT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    account_id  BIGINT NOT NULL REFERENCES accounts (id),
    user_id     BIGINT NOT NULL REFERENCES users (id),
    resource    TEXT NOT NULL,
    milli       BIGINT NOT NULL CHECK (milli >= 0),
    backfill    BOOLEAN NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL,
    ended_at    TIMESTAMPTZ,
    -- How far settlement has charged it: moved forward by a charge, or back to an end that turned out earlier
    -- than what was charged (a refund), in the transaction that writes the ledger entries.
    charged_until  TIMESTAMPTZ NOT NULL,
    charged_micros BIGINT NOT NULL DEFAULT 0,
    CHECK (ended_at IS NULL OR ended_at >= started_at)
);
-- A job holds a resource in at most one open interval: a replayed state change opens nothing twice.
CREATE UNIQUE INDEX usage_intervals_open ON usage_intervals (job_id, resource) WHERE ended_at IS NULL;
CREATE INDEX usage_intervals_job ON usage_intervals (job_id);
-- What settlement still has to look at: open intervals, and closed ones not charged exactly to their end.
CREATE INDEX usage_intervals_unsettled ON usage_intervals (id) WHERE charged_until IS DISTINCT FROM ended_at;

-- The price book: a price per unit-hour (core-hour, GiB-hour, device-hour) from a time on. Never updated: a new
-- price is a new row, so settled windows keep the price they were charged at.
CREATE TABLE prices (
    id              BIGSERIAL PRIMARY KEY,
    resource        TEXT NOT NULL,
    micros_per_hour BIGINT NOT NULL CHECK (micros_per_hour >= 0),
    effective_from  TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    created_by      TEXT NOT NULL,
    UNIQUE (resource, effective_from)
);

-- The ledger: every transaction is two entries of opposite amounts on two books (an account's book and a
-- platform book), keyed by the transaction's idempotency key. Rows are only ever inserted.
CREATE TABLE ledger_entries (
    id            BIGSERIAL PRIMARY KEY,
    txn           TEXT NOT NULL,
    book          TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('issue', 'charge', 'refund', 'adjust', 'expire')),
    amount_micros BIGINT NOT NULL,
    balance_after BIGINT NOT NULL,
    account_id    BIGINT REFERENCES accounts (id),
    user_id       BIGINT REFERENCES users (id),
    job_ref       TEXT,
    window_start  TIMESTAMPTZ,
    window_end    TIMESTAMPTZ,
    note          TEXT NOT NULL DEFAULT '',
    actor         TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (txn, book)
);
CREATE INDEX ledger_entries_book ON ledger_entries (book, id DESC);
CREATE INDEX ledger_entries_account ON ledger_entries (account_id, id DESC);

-- Balances are a projection of the ledger, updated in the entries' transaction and checked against them.
CREATE TABLE ledger_balances (
    book       TEXT PRIMARY KEY,
    balance    BIGINT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A budget per account and period: issued at each period's start, renewed by its policy.
CREATE TABLE budgets (
    account_id       BIGINT PRIMARY KEY REFERENCES accounts (id),
    period           TEXT NOT NULL CHECK (period IN ('month', 'week')),
    amount_micros    BIGINT NOT NULL CHECK (amount_micros >= 0),
    policy           TEXT NOT NULL CHECK (policy IN ('hard', 'soft', 'stop')),
    renewal          TEXT NOT NULL CHECK (renewal IN ('reset', 'carry')),
    period_start     TIMESTAMPTZ NOT NULL,
    period_end       TIMESTAMPTZ NOT NULL,
    notified_percent INTEGER NOT NULL DEFAULT 0,
    exhausted_at     TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_by       TEXT NOT NULL
);

-- Held unit-time and cost per account, member, resource and hour, added to by each settlement.
CREATE TABLE usage_hourly (
    account_id   BIGINT NOT NULL REFERENCES accounts (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    resource     TEXT NOT NULL,
    hour         TIMESTAMPTZ NOT NULL,
    held_milli_s NUMERIC(38, 0) NOT NULL,
    cost_micros  BIGINT NOT NULL,
    PRIMARY KEY (account_id, hour, user_id, resource)
);
-- A cluster-wide report reads the hours at its edges of every account.
CREATE INDEX usage_hourly_hour ON usage_hourly (hour);

-- The same per local day (in crater.accounting.zone): what reports over long spans read.
CREATE TABLE usage_daily (
    account_id   BIGINT NOT NULL REFERENCES accounts (id),
    user_id      BIGINT NOT NULL REFERENCES users (id),
    resource     TEXT NOT NULL,
    day          DATE NOT NULL,
    held_milli_s NUMERIC(38, 0) NOT NULL,
    cost_micros  BIGINT NOT NULL,
    PRIMARY KEY (account_id, day, user_id, resource)
);

-- One row: settlement takes it FOR UPDATE SKIP LOCKED, so one replica at a time settles, each window once.
CREATE TABLE settlement_state (
    name          TEXT PRIMARY KEY,
    settled_until TIMESTAMPTZ NOT NULL,
    runs          BIGINT NOT NULL DEFAULT 0
);
INSERT INTO settlement_state (name, settled_until) VALUES ('settlement', now());
