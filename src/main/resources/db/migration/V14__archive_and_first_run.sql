-- An archived account starts no job again; its rows stay for usage and audit.
ALTER TABLE accounts ADD COLUMN archived_at TIMESTAMPTZ;

-- When the user last chose their own password (NULL: still the one generated or set by an admin).
ALTER TABLE users ADD COLUMN password_changed_at TIMESTAMPTZ;
