-- The arguments of a history entry and of a notification (numbers and names), beside their code and English text,
-- so the console renders them in the reader's language. NULL on rows written before.
ALTER TABLE job_transitions ADD COLUMN args jsonb;
ALTER TABLE notifications ADD COLUMN args jsonb;
