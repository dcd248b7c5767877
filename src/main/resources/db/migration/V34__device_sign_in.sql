-- Signing in a client by the OAuth 2.0 device authorization grant (RFC 8628, docs/identity.md): the client asks
-- for a pair of codes, a signed-in person approves the user code in the console, the client polls with the device
-- code and is handed a personal access token of the approver's once. Both codes are kept only as SHA-256 hashes.
-- Rows an hour past their expiry are deleted as new requests come.
CREATE TABLE device_logins (
    id               BIGSERIAL PRIMARY KEY,
    device_code_hash TEXT NOT NULL UNIQUE,
    user_code_hash   TEXT NOT NULL UNIQUE,
    client_name      TEXT NOT NULL,
    client_address   TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    expires_at       TIMESTAMPTZ NOT NULL,
    interval_seconds INTEGER NOT NULL,
    last_polled_at   TIMESTAMPTZ,
    state            TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'denied', 'issued')),
    user_id          BIGINT REFERENCES users (id) ON DELETE CASCADE,
    decided_at       TIMESTAMPTZ,
    token_id         BIGINT REFERENCES personal_access_tokens (id) ON DELETE SET NULL
);
CREATE INDEX device_logins_expiry ON device_logins (expires_at);

-- The same counters that throttle sign-ins also count a person's misses at typing user codes and the device
-- requests each client address starts.
ALTER TABLE login_failures DROP CONSTRAINT login_failures_scope_check;
ALTER TABLE login_failures ADD CONSTRAINT login_failures_scope_check
    CHECK (scope IN ('username', 'address', 'device-code', 'device-request'));
