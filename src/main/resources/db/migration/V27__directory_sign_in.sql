-- Sign-in through a directory (LDAP, docs/identity.md).

-- Who granted a membership: 'manual' (an administrator or the onboarding), or 'ldap:<provider>' when a directory
-- group mapping did. A directory sync removes only the memberships its own provider granted.
ALTER TABLE account_members ADD COLUMN granted_by TEXT NOT NULL DEFAULT 'manual';

-- A user's primary group from the directory (gidNumber, or the domain users' RID); NULL: the personal account's.
ALTER TABLE users ADD COLUMN gid INTEGER;

-- The last directory sync per provider, as the admin page shows it: counts and the errors met, one per line.
CREATE TABLE directory_syncs (
    provider            TEXT PRIMARY KEY,
    started_at          TIMESTAMPTZ NOT NULL,
    finished_at         TIMESTAMPTZ NOT NULL,
    trigger             TEXT NOT NULL CHECK (trigger IN ('schedule', 'admin')),
    outcome             TEXT NOT NULL CHECK (outcome IN ('ok', 'partial', 'failed')),
    users_checked       INTEGER NOT NULL,
    users_linked        INTEGER NOT NULL,
    users_disabled      INTEGER NOT NULL,
    memberships_added   INTEGER NOT NULL,
    memberships_removed INTEGER NOT NULL,
    memberships_changed INTEGER NOT NULL,
    errors              TEXT NOT NULL DEFAULT ''
);
