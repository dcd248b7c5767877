-- Backfill jobs run on idle capacity outside their account's quota and are the first to be taken back.
ALTER TABLE jobs ADD COLUMN backfill BOOLEAN NOT NULL DEFAULT FALSE;
