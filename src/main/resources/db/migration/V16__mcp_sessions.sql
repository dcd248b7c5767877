-- The key MCP session ids are signed with, generated once so that every replica accepts the ids any replica issued.
CREATE TABLE mcp_session_keys (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    secret     TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- MCP sessions their clients ended (DELETE /mcp) before the expiry signed into their ids; pruned after it.
CREATE TABLE mcp_ended_sessions (
    nonce      TEXT PRIMARY KEY,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX mcp_ended_sessions_expiry ON mcp_ended_sessions (expires_at);
