-- The time limit in force, queryable, and when the owner was warned that it is near.
ALTER TABLE jobs ADD COLUMN time_limit_s BIGINT;
ALTER TABLE jobs ADD COLUMN limit_warned_at TIMESTAMPTZ;
CREATE INDEX jobs_limit_unwarned ON jobs (started_at) WHERE state = 'Running' AND time_limit_s IS NOT NULL AND limit_warned_at IS NULL;
