-- The events stream's log: one row per change that the console hears about live (a job's state, reasons, borrowing
-- or deletion; a node's view). Every replica reads it in the order (xid, seq) once a row's transaction is over
-- (its xid below the oldest running transaction's), so every replica publishes the same events with the same ids,
-- and a client resumes with Last-Event-ID on any of them.
CREATE TABLE event_log (
    seq     BIGSERIAL PRIMARY KEY,
    xid     XID8 NOT NULL DEFAULT pg_current_xact_id(),
    kind    TEXT NOT NULL CHECK (kind IN ('job', 'node')),
    subject TEXT NOT NULL,
    data    JSONB,
    at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX event_log_order ON event_log (xid, seq);
CREATE INDEX event_log_at ON event_log (at);

CREATE OR REPLACE FUNCTION crater_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO event_log (kind, subject) VALUES ('job', NEW.public_id);
    PERFORM pg_notify('crater_events', '');
    RETURN NULL;
END
$$;
