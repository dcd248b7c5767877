-- Sign-in through OpenID Connect providers (docs/identity.md).

-- The issuer of an OpenID identity: a provider's user is linked by issuer and subject (`sub`), so renaming the
-- provider in the settings keeps the links, and another issuer's equal `sub` is never the same person. NULL for
-- directory links, which are keyed by provider and DN.
ALTER TABLE external_identities ADD COLUMN issuer TEXT;
CREATE UNIQUE INDEX external_identities_issuer_subject ON external_identities (issuer, subject) WHERE issuer IS NOT NULL;

-- A sign-in started at a provider and not yet come back: the state sent along (also kept in a cookie of the
-- browser that started it), the nonce the ID token must carry, the PKCE verifier, where the console goes after.
-- Used once; rows past their expiry are deleted as new sign-ins start.
CREATE TABLE oidc_logins (
    state         TEXT PRIMARY KEY,
    provider      TEXT NOT NULL,
    nonce         TEXT NOT NULL,
    code_verifier TEXT NOT NULL,
    redirect_uri  TEXT NOT NULL,
    return_to     TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX oidc_logins_expiry ON oidc_logins (expires_at);
