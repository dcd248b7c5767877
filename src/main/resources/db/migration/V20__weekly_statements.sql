-- Accounts with a weekly budget get a statement per ISO week (2026-W48) beside the monthly ones (2026-11).
ALTER TABLE statements DROP CONSTRAINT statements_period_check;
ALTER TABLE statements ADD CONSTRAINT statements_period_check
    CHECK (period ~ '^[0-9]{4}-([0-9]{2}|W[0-9]{2})$');
