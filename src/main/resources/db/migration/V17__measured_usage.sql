-- Used GPU-hours: how much of what a job held of an accelerator it really used, from measured utilisation.

-- How far utilisation has been measured (null: not at all, from started_at on), and what it gave: device-milliseconds with samples (measured) and the
-- utilisation-weighted device-milliseconds (used). Time held but not measured is unknown, never idle or busy.
ALTER TABLE usage_intervals
    ADD COLUMN measured_until TIMESTAMPTZ,
    ADD COLUMN measured_ms    BIGINT NOT NULL DEFAULT 0 CHECK (measured_ms >= 0),
    ADD COLUMN used_ms        BIGINT NOT NULL DEFAULT 0 CHECK (used_ms >= 0);
-- What the meter still has to look at: intervals not measured to their end.
CREATE INDEX usage_intervals_unmeasured ON usage_intervals (id)
    WHERE ended_at IS NULL OR measured_until IS NULL OR measured_until < ended_at;

-- The same per hour and per local day, beside what was held and what it cost (device-milliseconds).
ALTER TABLE usage_hourly
    ADD COLUMN measured_ms BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN used_ms     BIGINT NOT NULL DEFAULT 0;
ALTER TABLE usage_daily
    ADD COLUMN measured_ms BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN used_ms     BIGINT NOT NULL DEFAULT 0;
