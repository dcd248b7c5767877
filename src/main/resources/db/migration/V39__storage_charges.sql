-- Storage charges (docs/accounting.md, "Storage"): the bytes each account's and user's space held when it was last
-- measured, who pays for it, and how far it has been charged. The charges themselves are ledger entries.
CREATE TABLE storage_charges (
    space         TEXT PRIMARY KEY,
    account_id    BIGINT NOT NULL REFERENCES accounts (id),
    user_id       BIGINT REFERENCES users (id),
    bytes         BIGINT NOT NULL CHECK (bytes >= 0),
    charged_until TIMESTAMPTZ NOT NULL
);
