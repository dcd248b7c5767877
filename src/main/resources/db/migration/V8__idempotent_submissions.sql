-- A client's retry of a submission (same Idempotency-Key from the same user) answers the job it created
-- instead of creating another; a key reused with a different request is refused.
ALTER TABLE jobs ADD COLUMN idempotency_key TEXT;
ALTER TABLE jobs ADD COLUMN request_hash TEXT;
CREATE UNIQUE INDEX jobs_idempotency ON jobs (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
