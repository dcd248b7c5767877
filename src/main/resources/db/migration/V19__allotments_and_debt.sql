-- The debt renewal: what is left expires at a period's start, a debt is carried into the new period.
ALTER TABLE budgets DROP CONSTRAINT budgets_renewal_check;
ALTER TABLE budgets ADD CONSTRAINT budgets_renewal_check CHECK (renewal IN ('reset', 'carry', 'debt'));

-- Allotments: what one member may spend per period of their account's budget. Only ever a cap: nothing is
-- issued for it, the account's book still holds the money. What the member spent this period is read from
-- the ledger (their jobs' charges less refunds), never stored here.
CREATE TABLE budget_allotments (
    account_id       BIGINT NOT NULL REFERENCES accounts (id),
    user_id          BIGINT NOT NULL REFERENCES users (id),
    amount_micros    BIGINT NOT NULL CHECK (amount_micros >= 0),
    -- The highest threshold (80, 100) the member was told of, in the period that started at notified_period.
    notified_percent INTEGER NOT NULL DEFAULT 0,
    notified_period  TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_by       TEXT NOT NULL,
    PRIMARY KEY (account_id, user_id)
);

-- A member's charges and refunds of a period, read per admission round and per settlement.
CREATE INDEX ledger_entries_member_spend ON ledger_entries (book, user_id, created_at)
    WHERE kind IN ('charge', 'refund');
